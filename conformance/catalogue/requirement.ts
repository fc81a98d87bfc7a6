/** One promise of the interface, checked by the suite, named by id in every check that covers it. */
export interface Requirement {
  id: string;
  /** What is promised: the document's own words for documented ones, the spec's reason for inferred ones. */
  statement: string;
  /** `documented` by the interface document, `inferred` by our spec, or a corrected `erratum` of the document. */
  source: 'documented' | 'inferred' | 'erratum';
  /** Where the spec carries it: `<file>#<pointer>` relative to spec/. */
  pointers: string[];
  /** Why an inferred rule of a rule set holds (the nearest x-inferred); inferred requirements carry it as statement. */
  reason?: string;
  /** The interface surface it belongs to, for coverage reporting. */
  surface: 'rest' | 'oauth' | 'mqtt' | 'websocket' | 'webhooks';
}

export type Profile = 'documented' | 'full';

/** Whether a profile judges a requirement: `documented` leaves out what our spec inferred. */
export function inProfile(requirement: Requirement, profile: Profile): boolean {
  return profile === 'full' || requirement.source !== 'inferred';
}

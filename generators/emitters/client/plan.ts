import type { ResponseKind } from '../../../runtime/http/request.js';
import type { ApiModel, Operation, SecurityScheme } from '../../ir/model.js';
import { pascalCase } from '../../ir/names.js';
import { kebabCase, methodNames } from './method-names.js';
import {
  type ListShape,
  listShape,
  type PaginationRules,
  paginationRules,
  successResponse,
} from './pagination.js';

export interface MethodPlan {
  operation: Operation;
  name: string;
  list: ListShape | null;
  /** How the success body is read, and its status (null when the operation declares no 2xx). */
  response: { kind: ResponseKind; status: string | null };
}

export interface GroupPlan {
  property: string;
  className: string;
  file: string;
  methods: MethodPlan[];
}

/** The authorization code flow of the first OAuth 2 scheme that gives both URLs. */
export interface OAuthPlan {
  scheme: SecurityScheme;
  authorizationUrl: string;
  tokenUrl: string;
  /** The token endpoint's operation, whose 200 body types the tokens. */
  tokenOperation: Operation | null;
}

export interface ClientPlan {
  groups: GroupPlan[];
  oauth: OAuthPlan | null;
  pagination: PaginationRules | null;
  /** The spec's server URL when it is a complete URL; a template or a relative URL needs the caller's `baseUrl`. */
  defaultBaseUrl: string | null;
  /** Some scheme takes a bearer credential, so `apiKey` is offered as a shortcut. */
  bearer: boolean;
}

// Files the artifact writes besides the groups'; a group with one of these names gets a suffix.
const reservedFiles = new Set(['errors', 'oauth', 'index']);

function groupFile(group: string): string {
  const name = kebabCase(group);
  return `client/${reservedFiles.has(name) ? `${name}-resource` : name}.ts`;
}

export function concreteUrl(url: string | null): string | null {
  return url !== null && /^https?:\/\/[^{}\s]+$/.test(url) ? url : null;
}

export function responseKind(contentType: string | null): ResponseKind {
  if (contentType === null) return 'none';
  if (/^application\/([\w.+-]+\+)?json\b/i.test(contentType)) return 'json';
  if (/^text\/|[+/]xml\b|^application\/x-www-form-urlencoded\b/i.test(contentType)) return 'text';
  return 'bytes';
}

/** An operation at one of the flow's URLs is served by the OAuth helper, not by a resource group. */
function isFlowEndpoint(operation: Operation, flowUrls: readonly string[]): boolean {
  const server = concreteUrl(operation.serverUrl);
  return flowUrls.some((url) =>
    server === null ? new URL(url).pathname.endsWith(operation.path) : `${server}${operation.path}` === url,
  );
}

function oauthPlan(model: ApiModel): OAuthPlan | null {
  const scheme = model.securitySchemes.find(
    (candidate) =>
      candidate.type === 'oauth2' && candidate.authorizationUrl !== null && candidate.tokenUrl !== null,
  );
  if (scheme?.authorizationUrl == null || scheme.tokenUrl === null) return null;
  const tokenUrl = scheme.tokenUrl;
  const tokenOperation =
    model.operations.find(
      (operation) => operation.method === 'post' && isFlowEndpoint(operation, [tokenUrl]),
    ) ?? null;
  return { scheme, authorizationUrl: scheme.authorizationUrl, tokenUrl, tokenOperation };
}

export function planClient(model: ApiModel): ClientPlan {
  const oauth = oauthPlan(model);
  const pagination = paginationRules(model);
  const flowUrls = oauth === null ? [] : [oauth.authorizationUrl, oauth.tokenUrl];
  const served = model.operations.filter((operation) => !isFlowEndpoint(operation, flowUrls));
  const groupNames = [...new Set(served.map((operation) => operation.group))].sort();
  const groups = groupNames.map((group): GroupPlan => {
    const operations = served.filter((operation) => operation.group === group);
    const lists = new Map(
      operations.map((operation) => [operation.id, listShape(model, pagination, operation)]),
    );
    const names = methodNames(operations, (operation) => lists.get(operation.id) != null);
    const methods = operations.map((operation): MethodPlan => {
      const success = successResponse(operation);
      const response = { kind: responseKind(success?.contentType ?? null), status: success?.status ?? null };
      return {
        operation,
        name: names.get(operation.id) ?? operation.id,
        list: lists.get(operation.id) ?? null,
        response,
      };
    });
    return { property: group, className: `${pascalCase(group)}Resource`, file: groupFile(group), methods };
  });
  const bearer = model.securitySchemes.some((scheme) => scheme.scheme?.toLowerCase() === 'bearer');
  return { groups, oauth, pagination, defaultBaseUrl: concreteUrl(model.serverUrl), bearer };
}

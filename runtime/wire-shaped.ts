/**
 * Bodies a handler built with exactly the properties of their response schema, in the schema's order, none undefined
 * and none of another type: `JSON.stringify` writes the same text for them as the schema's serializer would. It is the
 * faster of the two for a page of objects full of strings (fast-json-stringify escapes each string in a JavaScript
 * loop; V8's JSON.stringify does it natively), so such bodies skip the schema's serializer.
 *
 * Only for such pages: for one object the serializer is as fast, and the mark costs. In a serving process (CPU per
 * request of a bare Fastify route, `bench/measure/route-variants.ts`, two runs of wave 22) a created stream cost 1.8-2.8
 * µs more marked and stringified than through its serializer, and a page of 100 reports 1.5 µs more marked than
 * unmarked but about 20 µs less than through its serializer. In the reference, the created stream's mark cost 3-5 µs
 * of a POST (`rest-cpu-ab.ts`). A mark on a spread copy (`wireShaped({ ...object })`) costs most: 9 µs in one measure.
 *
 * The mark is a non-enumerable symbol property of the body: JSON.stringify, Object.keys and equality checks do not see
 * it, and a copy (`{ ...body }`, which may then gain other properties) is not marked. It replaced a WeakSet, whose
 * every entry cost V8's ephemeron write barrier and collector work (in a scratch measure of the same kind: 2.6 against
 * 1 µs a page).
 */
const wireShapedMark = Symbol('wire-shaped');
const marked: PropertyDescriptor = { value: true };

/** Marks `body` as built in its wire shape (see above); returns it. */
export function wireShaped<Body extends object>(body: Body): Body {
  Object.defineProperty(body, wireShapedMark, marked);
  return body;
}

export function isWireShaped(body: unknown): body is object {
  return (
    typeof body === 'object' &&
    body !== null &&
    (body as { [wireShapedMark]?: true })[wireShapedMark] === true
  );
}

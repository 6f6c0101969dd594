// What the two vendoring scripts (vendor-stripe-openapi.mjs, vendor-pix-openapi.mjs) share:
// an OpenAPI description cut down to the paths Cobro calls, every component those paths reach,
// and nothing a validator does not read.

/** A copy of `value` without the members `isDoc(key, member)` says are documentation. */
export function withoutDocs(value, isDoc) {
  if (Array.isArray(value)) {
    return value.map((item) => withoutDocs(item, isDoc));
  }
  if (value === null || typeof value !== 'object') {
    return value;
  }
  const out = {};
  for (const [key, member] of Object.entries(value)) {
    if (!isDoc(key, member)) {
      out[key] = withoutDocs(member, isDoc);
    }
  }
  return out;
}

/** The object's members sorted by key, so the output does not depend on the upstream order. */
export const sortedKeys = (o) => Object.fromEntries(Object.entries(o).sort(([a], [b]) => a.localeCompare(b)));

/**
 * `paths` of `spec` (each whole: every operation, callbacks included) and, transitively, every
 * component they reference whatever its kind (schemas, request bodies, responses, parameters),
 * both without documentation and sorted. Throws on a missing path or an unresolved reference.
 */
export function trimmed(spec, paths, isDoc) {
  const kept = {};
  for (const path of paths) {
    if (!spec.paths[path]) {
      throw new Error(`the description has no path ${path}`);
    }
    kept[path] = withoutDocs(spec.paths[path], isDoc);
  }
  const components = {};
  const queue = [kept];
  while (queue.length > 0) {
    const value = queue.pop();
    if (value === null || typeof value !== 'object') {
      continue;
    }
    for (const [key, member] of Object.entries(value)) {
      if (key !== '$ref' || typeof member !== 'string') {
        queue.push(member);
        continue;
      }
      const match = /^#\/components\/([A-Za-z]+)\/(.+)$/.exec(member);
      if (!match) {
        throw new Error(`unexpected reference ${member}`);
      }
      const [, kind, name] = match;
      components[kind] ??= {};
      if (!(name in components[kind])) {
        const found = spec.components?.[kind]?.[name];
        if (!found) {
          throw new Error(`unresolved reference ${member}`);
        }
        components[kind][name] = withoutDocs(found, isDoc);
        queue.push(components[kind][name]);
      }
    }
  }
  return {
    paths: sortedKeys(kept),
    components: Object.fromEntries(Object.entries(sortedKeys(components)).map(([k, v]) => [k, sortedKeys(v)])),
  };
}

/** How many components of all kinds `components` holds. */
export const componentCount = (components) =>
  Object.values(components).reduce((n, kind) => n + Object.keys(kind).length, 0);

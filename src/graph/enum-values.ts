/** An enum's `values` from name → description, each name standing for itself in lower case (`PUBLISH`: `'publish'`). */
export function lowerCaseValues<const D extends Record<string, string>>(descriptions: D) {
  return Object.fromEntries(
    Object.entries(descriptions).map(([name, description]) => [name, { value: name.toLowerCase(), description }]),
  ) as { [N in keyof D & string]: { value: Lowercase<N>; description: D[N] } };
}

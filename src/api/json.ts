/** Reading loose JSON the service sends (tool events, traces): objects told from arrays, fields under several names. */

export type Json = Record<string, unknown>;

export const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The first of `names` that `o` has a value for (null counts as none). */
export function field(o: Json, ...names: string[]): unknown {
  for (const name of names) if (o[name] !== undefined && o[name] !== null) return o[name];
  return undefined;
}

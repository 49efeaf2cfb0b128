// Its own module: the conversion thread needs it without loading the pool (and piscina).

/** The media id of an image extracted by one conversion (its content hash, shortened, after the prefix). */
export function imageMediaId(prefix: string, imageId: string): string {
  return `${prefix}-${imageId.slice(0, 32)}`;
}

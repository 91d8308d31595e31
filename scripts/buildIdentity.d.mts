/** See buildIdentity.mjs. */
export declare function buildIdentity(root: string): string;

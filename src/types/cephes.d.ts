// cephes ships index.d.ts but its package.json "exports" has no "types" condition, so TypeScript's
// NodeNext resolution cannot find it. These are the functions arcbench uses, as that file declares them.
declare module 'cephes' {
  const cephes: {
    /** Resolves once the WebAssembly module is compiled; call nothing before. */
    readonly compiled: Promise<void>;
    /** Inverse of Student's t CDF: the t with P(T ≤ t) = p for k degrees of freedom. */
    stdtri(k: number, p: number): number;
    /** Inverse of the standard normal CDF. */
    ndtri(p: number): number;
  };
  export default cephes;
}

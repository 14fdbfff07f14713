/** The part of amaro (Node.js's own TypeScript type stripper, https://github.com/nodejs/amaro) the dashboard uses; the package ships no types. */
declare module 'amaro' {
  const amaro: {
    /** `strip-only` replaces type annotations with spaces, so lines and columns stay where they were. */
    transformSync(code: string, options: { mode: 'strip-only' | 'transform' }): { code: string };
  };
  export default amaro;
}

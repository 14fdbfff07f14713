/** The part of jStat (https://jstat.github.io) the evaluation statistics use; the package ships no types. */
declare module 'jstat' {
  const jstat: {
    jStat: {
      studentt: {
        /** Quantile function of Student's t distribution with `dof` degrees of freedom. */
        inv(p: number, dof: number): number;
      };
      normal: {
        inv(p: number, mean: number, std: number): number;
      };
    };
  };
  export default jstat;
}

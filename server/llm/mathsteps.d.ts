/** The few parts of mathsteps (Socratic's step engine, CommonJS, untyped) the tutor uses. */
declare module 'mathsteps' {
  export interface MathstepsNode {
    toString(): string;
  }
  export interface MathstepsEquation {
    ascii(): string;
    leftNode: MathstepsNode;
    rightNode: MathstepsNode & { args?: MathstepsNode[] };
  }
  export interface MathstepsStep {
    changeType: string;
    oldNode?: MathstepsNode;
    newNode?: MathstepsNode;
    oldEquation?: MathstepsEquation;
    newEquation?: MathstepsEquation;
    substeps: MathstepsStep[];
  }
  const mathsteps: {
    solveEquation(text: string): MathstepsStep[];
    simplifyExpression(text: string): MathstepsStep[];
  };
  export default mathsteps;
}

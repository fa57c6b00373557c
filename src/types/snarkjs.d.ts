// Minimal typings for the parts of snarkjs 0.7 and circom_runtime that Credence uses (neither ships types).
declare module 'snarkjs' {
  export type MemFile = { type: 'mem'; data: Uint8Array };
  export type FileRef = string | MemFile;
  export interface Groth16Proof {
    pi_a: string[];
    pi_b: string[][];
    pi_c: string[];
    protocol: string;
    curve: string;
  }
  export interface VerificationKey {
    protocol: string;
    curve: string;
    nPublic: number;
    [k: string]: unknown;
  }
  export const groth16: {
    fullProve(
      input: Record<string, unknown>,
      wasm: FileRef,
      zkey: FileRef,
      logger?: unknown,
      wtnsOpts?: unknown,
      proverOpts?: unknown,
    ): Promise<{ proof: Groth16Proof; publicSignals: string[] }>;
    prove(
      zkey: FileRef,
      witness: FileRef,
      logger?: unknown,
      options?: { singleThread?: boolean },
    ): Promise<{ proof: Groth16Proof; publicSignals: string[] }>;
    verify(vk: unknown, publicSignals: (string | bigint)[], proof: unknown, logger?: unknown): Promise<boolean>;
  };
  export const powersOfTau: {
    newAccumulator(curve: unknown, power: number, file: string, logger?: unknown): Promise<unknown>;
    contribute(oldPtau: string, newPtau: string, name: string, entropy: string, logger?: unknown): Promise<unknown>;
    beacon(
      oldPtau: string,
      newPtau: string,
      name: string,
      beaconHash: string,
      numIterationsExp: number,
      logger?: unknown,
    ): Promise<unknown>;
    preparePhase2(oldPtau: string, newPtau: string, logger?: unknown): Promise<unknown>;
    verify(ptau: string, logger?: unknown): Promise<boolean>;
  };
  export const zKey: {
    newZKey(r1cs: string, ptau: string, zkey: string, logger?: unknown): Promise<unknown>;
    contribute(oldZkey: string, newZkey: string, name: string, entropy: string, logger?: unknown): Promise<string>;
    beacon(
      oldZkey: string,
      newZkey: string,
      name: string,
      beaconHash: string,
      numIterationsExp: number,
      logger?: unknown,
    ): Promise<unknown>;
    exportVerificationKey(zkey: FileRef, logger?: unknown): Promise<VerificationKey>;
    exportSolidityVerifier(zkey: FileRef, templates: Record<string, string>, logger?: unknown): Promise<string>;
    verifyFromR1cs(r1cs: string, ptau: string, zkey: string, logger?: unknown): Promise<boolean>;
  };
  export const curves: {
    getCurveFromName(name: string, options?: { singleThread?: boolean }): Promise<{ terminate(): Promise<void> }>;
  };
}

declare module 'ffjavascript' {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  export function buildBn128(singleThread?: boolean): Promise<any>;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  export const Scalar: any;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  export const utils: { unstringifyBigInts(v: unknown): any; stringifyBigInts(v: unknown): any };
}

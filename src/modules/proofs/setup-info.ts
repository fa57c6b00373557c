// Reads who took part in a trusted setup straight from the binary files, so the claim "N contributors" is the
// files' own and not a label: the contribution list of a phase-1 .ptau (section 7) and the phase-2 MPC parameters
// of a .zkey (section 10), in the iden3 binfile layout snarkjs writes (magic, version, sections of type + size).
import { closeSync, openSync, readSync } from 'node:fs';

export interface Contribution {
  name: string;
  /** a beacon: public randomness (e.g. a future block hash) applied last, not a party's secret */
  beacon: boolean;
}

function sectionsOf(file: string, magic: string): { fd: number; sections: Map<number, { pos: number; size: number }> } {
  const fd = openSync(file, 'r');
  const head = Buffer.alloc(12);
  readSync(fd, head, 0, 12, 0);
  if (head.toString('latin1', 0, 4) !== magic) {
    closeSync(fd);
    throw new Error(`${file}: not a .${magic} file`);
  }
  const n = head.readUInt32LE(8);
  const sections = new Map<number, { pos: number; size: number }>();
  let pos = 12;
  const h = Buffer.alloc(12);
  for (let i = 0; i < n; i++) {
    readSync(fd, h, 0, 12, pos);
    const type = h.readUInt32LE(0);
    const size = Number(h.readBigUInt64LE(4));
    sections.set(type, { pos: pos + 12, size });
    pos += 12 + size;
  }
  return { fd, sections };
}

/** Parameters after a contribution: type u32, length u32, then (id, value) pairs; id 1 = name, 3 = beacon hash. */
function readParams(buf: Buffer, at: number): { contribution: Contribution; end: number } {
  const type = buf.readUInt32LE(at);
  const len = buf.readUInt32LE(at + 4);
  let p = at + 8;
  let name = '';
  while (p < at + 8 + len) {
    const id = buf[p++];
    if (id === 1) {
      const l = buf[p++];
      name = buf.toString('utf8', p, p + l);
      p += l;
    } else if (id === 2) p += 1;
    else if (id === 3) p += 1 + buf[p];
    else throw new Error('unknown contribution parameter');
  }
  return { contribution: { name, beacon: type === 1 }, end: at + 8 + len };
}

function readSection(file: string, magic: string, type: number): Buffer {
  const { fd, sections } = sectionsOf(file, magic);
  try {
    const s = sections.get(type);
    if (!s) throw new Error(`${file}: no contributions section`);
    const buf = Buffer.alloc(s.size);
    readSync(fd, buf, 0, s.size, s.pos);
    return buf;
  } finally {
    closeSync(fd);
  }
}

// bn128 uncompressed points: G1 64 bytes, G2 128.
const G1 = 64;
const G2 = 128;

/** Phase 1: each contribution is tauG1, tauG2, alphaG1, betaG1, betaG2, a public key (6 G1 + 3 G2), a partial hash
 *  (216) and the next challenge (64), then its parameters. */
export function ptauContributions(file: string): Contribution[] {
  const buf = readSection(file, 'ptau', 7);
  const n = buf.readUInt32LE(0);
  const out: Contribution[] = [];
  let p = 4;
  for (let i = 0; i < n; i++) {
    p += 3 * G1 + 2 * G2 + 6 * G1 + 3 * G2 + 216 + 64;
    const r = readParams(buf, p);
    out.push(r.contribution);
    p = r.end;
  }
  return out;
}

/** Phase 2: the circuit's hash (64), then per contribution deltaAfter, g1_s, g1_sx (G1), g2_spx (G2), the transcript
 *  (64) and its parameters. */
export function zkeyContributions(file: string): Contribution[] {
  const buf = readSection(file, 'zkey', 10);
  const n = buf.readUInt32LE(64);
  const out: Contribution[] = [];
  let p = 68;
  for (let i = 0; i < n; i++) {
    p += 3 * G1 + G2 + 64;
    const r = readParams(buf, p);
    out.push(r.contribution);
    p = r.end;
  }
  return out;
}

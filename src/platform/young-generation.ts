// A start allocates mostly what it keeps (modules, compiled schemas, registries), so V8 grows its young generation
// (the new space) to its maximum, 2 x 16 MB, during the start; an idle instance then held those pages until V8's
// memory reducer gave them back, from 10 s to minutes later. `npm start` holds the young generation at its initial
// size while it starts (V8 reads the growth factor whenever it would grow the space) and lets it grow as usual once
// it serves: under requests it reaches the same size as before.
import v8 from 'node:v8';

/** V8's default --semi-space-growth-factor */
const GROWTH = 2;

/** Holds the young generation's size until the returned function is called; does nothing if node was given the flag. */
export function holdYoungGeneration(): () => void {
  const given = [...process.execArgv, ...(process.env.NODE_OPTIONS ?? '').split(/\s+/)].some((a) =>
    /^--semi[-_]space[-_]growth[-_]factor/.test(a),
  );
  if (given) return () => undefined;
  v8.setFlagsFromString('--semi-space-growth-factor=1');
  let released = false;
  return () => {
    if (released) return;
    released = true;
    v8.setFlagsFromString(`--semi-space-growth-factor=${GROWTH}`);
  };
}

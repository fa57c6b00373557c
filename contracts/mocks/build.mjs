// Compiles the local-chain protocol mocks with the installed solc (JavaScript build) into artifacts/<Name>.json
// ({contractName, abi, bytecode}). Run: node contracts/mocks/build.mjs. The artifacts are committed.
import { readdirSync, readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import solc from 'solc';

const dir = path.dirname(fileURLToPath(import.meta.url));
const sources = Object.fromEntries(
  readdirSync(dir)
    .filter((f) => f.endsWith('.sol'))
    .map((f) => [f, { content: readFileSync(path.join(dir, f), 'utf8') }]),
);
const input = {
  language: 'Solidity',
  sources,
  settings: {
    optimizer: { enabled: true, runs: 200 },
    evmVersion: 'cancun',
    outputSelection: { '*': { '*': ['abi', 'evm.bytecode.object'] } },
  },
};
const output = JSON.parse(solc.compile(JSON.stringify(input)));
const errors = (output.errors ?? []).filter((e) => e.severity === 'error');
for (const e of output.errors ?? []) console.error(e.formattedMessage);
if (errors.length) process.exit(1);
const out = path.join(dir, 'artifacts');
mkdirSync(out, { recursive: true });
for (const [file, contracts] of Object.entries(output.contracts)) {
  for (const [name, c] of Object.entries(contracts)) {
    if (!c.evm.bytecode.object) continue; // interfaces
    writeFileSync(
      path.join(out, `${name}.json`),
      JSON.stringify(
        { contractName: name, sourceName: file, solc: solc.version(), abi: c.abi, bytecode: `0x${c.evm.bytecode.object}` },
        null,
        2,
      ) + '\n',
    );
    console.log(`${name}: ${c.evm.bytecode.object.length / 2} bytes`);
  }
}

// Strict argument parsing for every `credence` command: each command declares its flags, subcommands and
// positionals, and anything else is an error (exit code 2) naming the closest known spelling, as git and the
// stripe CLI do ("unknown flag --prot; did you mean --port?").

export interface FlagSpec {
  /** a string flag takes a value (`--port 8080` or `--port=8080`); a boolean flag takes none */
  type: 'string' | 'boolean';
  description: string;
  /** the value's placeholder in help, e.g. <port> */
  value?: string;
  /** may be given several times (values collected) */
  multiple?: boolean;
}

export interface CommandSpec {
  summary: string;
  /** the positional arguments' help, e.g. `<address|ens>` */
  args?: string;
  /** how many positionals are accepted (default none) */
  positionals?: { min: number; max: number };
  flags?: Record<string, FlagSpec>;
  subcommands?: Record<string, CommandSpec>;
  /** extra help text */
  notes?: string;
}

export interface Parsed {
  /** the subcommand path, e.g. ['keys', 'create'] */
  path: string[];
  flags: Record<string, string | boolean | string[] | undefined>;
  positionals: string[];
  help: boolean;
  spec: CommandSpec;
}

export class UsageError extends Error {
  constructor(
    message: string,
    readonly command: string[],
  ) {
    super(message);
  }
}

/** Levenshtein distance (insertions, deletions, substitutions; a swap of neighbours counts one). */
export function editDistance(a: string, b: string): number {
  const d: number[][] = Array.from({ length: a.length + 1 }, (_, i) =>
    Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)),
  );
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      d[i][j] = Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d[i][j] = Math.min(d[i][j], d[i - 2][j - 2] + 1);
    }
  }
  return d[a.length][b.length];
}

/** The known words closest to `word` (within a third of its length, at least 2 edits; a prefix counts as close), the nearest only. */
export function suggest(word: string, known: string[]): string[] {
  const w = word.toLowerCase();
  const limit = Math.max(2, Math.floor(w.length / 3));
  const near = known
    .map((k) => ({ k, d: k.toLowerCase().startsWith(w) && w.length >= 3 ? 0.5 : editDistance(w, k.toLowerCase()) }))
    .filter((x) => x.d <= limit);
  const best = Math.min(...near.map((x) => x.d));
  return near
    .filter((x) => x.d === best)
    .slice(0, 3)
    .map((x) => x.k);
}

const didYouMean = (options: string[]) => (options.length ? `; did you mean ${options.join(' or ')}?` : '');

export function parseCommand(name: string, root: CommandSpec, args: string[]): Parsed {
  const path = [name];
  let spec = root;
  let i = 0;
  // descend into subcommands
  while (spec.subcommands && i < args.length && !args[i].startsWith('-')) {
    const sub = spec.subcommands[args[i]];
    if (!sub) {
      throw new UsageError(
        `unknown command "${args[i]}" for credence ${path.join(' ')}${didYouMean(suggest(args[i], Object.keys(spec.subcommands)))}`,
        path,
      );
    }
    path.push(args[i]);
    spec = sub;
    i++;
  }
  const flags: Parsed['flags'] = {};
  const positionals: string[] = [];
  let help = false;
  const known = spec.flags ?? {};
  for (; i < args.length; i++) {
    const a = args[i];
    if (a === '--') {
      positionals.push(...args.slice(i + 1));
      break;
    }
    if (a === '--help' || a === '-h') {
      help = true;
      continue;
    }
    if (a.startsWith('-') && a !== '-') {
      const eq = a.indexOf('=');
      const raw = a.startsWith('--') ? a.slice(2, eq < 0 ? undefined : eq) : a.slice(1);
      const f = known[raw];
      if (!f || !a.startsWith('--')) {
        const names = Object.keys(known).map((k) => `--${k}`);
        throw new UsageError(
          `unknown flag ${eq < 0 ? a : a.slice(0, eq)} for credence ${path.join(' ')}${didYouMean(suggest(`--${raw}`, [...names, '--help']))}`,
          path,
        );
      }
      let value: string | boolean;
      if (f.type === 'boolean') {
        if (eq >= 0) {
          const v = a.slice(eq + 1);
          if (v !== 'true' && v !== 'false') throw new UsageError(`--${raw} takes no value (or =true / =false)`, path);
          value = v === 'true';
        } else value = true;
      } else if (eq >= 0) value = a.slice(eq + 1);
      else {
        const next = args[i + 1];
        if (next === undefined || (next.startsWith('--') && next.length > 2))
          throw new UsageError(`--${raw} needs a value${f.value ? ` ${f.value}` : ''}`, path);
        value = next;
        i++;
      }
      if (f.multiple) flags[raw] = [...((flags[raw] as string[] | undefined) ?? []), String(value)];
      else if (flags[raw] !== undefined && f.type === 'string') throw new UsageError(`--${raw} given twice`, path);
      else flags[raw] = value;
      continue;
    }
    positionals.push(a);
  }
  if (!help) {
    if (spec.subcommands && !spec.positionals) {
      throw new UsageError(`credence ${path.join(' ')} needs a command: ${Object.keys(spec.subcommands).join(', ')}`, path);
    }
    const p = spec.positionals ?? { min: 0, max: 0 };
    if (positionals.length > p.max) {
      const extra = positionals[p.max];
      const subs = spec.subcommands ? didYouMean(suggest(extra, Object.keys(spec.subcommands))) : '';
      throw new UsageError(`unexpected argument "${extra}" for credence ${path.join(' ')}${subs}`, path);
    }
    if (positionals.length < p.min) throw new UsageError(`credence ${path.join(' ')} needs ${spec.args ?? 'an argument'}`, path);
  }
  return { path, flags, positionals, help, spec };
}

/** `credence <path> --help`: the usage line, the subcommands and every flag. */
export function helpText(path: string[], spec: CommandSpec): string {
  const lines: string[] = [];
  const subs = spec.subcommands ? Object.keys(spec.subcommands) : [];
  const hasFlags = Object.keys(spec.flags ?? {}).length > 0;
  lines.push(
    `usage: credence ${path.join(' ')}${subs.length ? ' <command>' : ''}${spec.args ? ` ${spec.args}` : ''}${hasFlags ? ' [flags]' : ''}`,
    '',
    spec.summary,
  );
  if (subs.length) {
    lines.push('', 'commands:');
    for (const [n, s] of Object.entries(spec.subcommands!)) lines.push(`  ${n.padEnd(14)} ${s.summary}`);
    lines.push('', `credence ${path.join(' ')} <command> --help for its flags`);
  }
  if (hasFlags) {
    lines.push('', 'flags:');
    for (const [n, f] of Object.entries(spec.flags!)) {
      const left = `--${n}${f.type === 'string' ? ` ${f.value ?? '<value>'}` : ''}`;
      lines.push(`  ${left.padEnd(28)} ${f.description}${f.multiple ? ' (repeatable)' : ''}`);
    }
  }
  lines.push(`  ${'--help'.padEnd(28)} this help`);
  if (spec.notes) lines.push('', spec.notes);
  return lines.join('\n');
}

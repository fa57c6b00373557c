// Admin (a JWT with the admin role): the disputes of a wallet with status actions and revised scores, that
// wallet's score revisions, and the sanctions lists with an upload that shows its progress.
import { useState } from 'preact/hooks';
import { createCredenceClient } from '@credence/sdk';
import { call, client, CATEGORY_NAMES, type Category } from '../api.ts';
import { Field, Section, Status, useAction, useLoad, when } from '../ui/kit.tsx';
import { xhrFetch } from '../xhr-fetch.ts';

const STATUSES = ['Pending', 'Under Review', 'Evidence Requested', 'Resolved', 'Rejected', 'Escalated'] as const;

interface Dispute {
  id: string;
  walletAddress: string;
  category: Category;
  reason: string;
  status: string;
  description: string;
  evidence?: string | null;
  createdAt: string;
  resolutionNotes?: string | null;
  revisedScore?: number | null;
}

function DisputeAdmin({ d, admin, onChange }: { d: Dispute; admin: string; onChange: () => void }) {
  const [status, setStatus] = useState<string>(d.status === 'Pending' ? 'Under Review' : d.status);
  const [notes, setNotes] = useState('');
  const [revised, setRevised] = useState('');
  const a = useAction();
  return (
    <li class="row" data-testid="admin-dispute">
      <p>
        <strong>{CATEGORY_NAMES[d.category]}</strong> · {d.reason} · <span class="badge" data-testid="admin-dispute-status">{d.status}</span> · {when(d.createdAt)} · <code>{d.id}</code>
      </p>
      <p>{d.description}</p>
      {d.evidence && <p class="muted">Evidence: {d.evidence}</p>}
      <form
        class="grid"
        onSubmit={(e) => {
          e.preventDefault();
          void a.run(async () => {
            const body = { status: status as never, resolvedBy: admin, ...(notes ? { resolutionNotes: notes } : {}), ...(revised !== '' ? { revisedScore: Number(revised) } : {}) };
            await call(client.PUT('/api/v1/dispute/{id}/status', { params: { path: { id: d.id } }, body }));
            onChange();
            return `Dispute set to ${status}.`;
          });
        }}
      >
        <Field label="New status">
          <select name="adminStatus" value={status} onChange={(e) => setStatus(e.currentTarget.value)}>
            {STATUSES.map((s) => (
              <option key={s}>{s}</option>
            ))}
          </select>
        </Field>
        <Field label="Resolution notes">
          <input name="resolutionNotes" value={notes} onInput={(e) => setNotes(e.currentTarget.value)} />
        </Field>
        <Field label="Revised score (0-1000, optional)">
          <input name="revisedScore" type="number" min={0} max={1000} value={revised} onInput={(e) => setRevised(e.currentTarget.value)} />
        </Field>
        <button type="submit" disabled={a.busy}>
          Apply
        </button>
      </form>
      <Status error={a.error} ok={a.ok} testid="admin-dispute" />
    </li>
  );
}

function WalletReview({ wallet, admin }: { wallet: string; admin: string }) {
  const l = useLoad(() => call(client.GET('/api/v1/dispute/wallet/{address}', { params: { path: { address: wallet } } })), [wallet]);
  const r = useLoad(async () => {
    const res = await call(client.GET('/api/v1/reputation/changes', { params: { query: { address: wallet, limit: 500 } } }));
    return res.changes.filter((c) => c.cause === 'dispute_revision');
  }, [wallet, l.data]);
  const open = (l.data?.disputes as unknown as Dispute[] | undefined)?.filter((d) => !['Resolved', 'Rejected', 'Withdrawn'].includes(d.status)) ?? [];
  const closed = (l.data?.disputes as unknown as Dispute[] | undefined)?.filter((d) => ['Resolved', 'Rejected', 'Withdrawn'].includes(d.status)) ?? [];
  return (
    <>
      <h3>Open disputes of {wallet}</h3>
      <Status error={l.error} testid="admin-disputes" />
      <ul class="list">
        {open.map((d) => (
          <DisputeAdmin key={d.id} d={d} admin={admin} onChange={l.reload} />
        ))}
        {l.data && open.length === 0 && <li>None open.</li>}
      </ul>
      {closed.length > 0 && (
        <details>
          <summary>{closed.length} closed</summary>
          <ul class="list">
            {closed.map((d) => (
              <li key={d.id}>
                {CATEGORY_NAMES[d.category]} · {d.status} · {d.resolutionNotes ?? ''} {d.revisedScore != null ? `(revised to ${d.revisedScore})` : ''}
              </li>
            ))}
          </ul>
        </details>
      )}
      <h3>Score revisions of {wallet}</h3>
      <Status error={r.error} testid="revisions" />
      {r.data && r.data.length === 0 && <p>No revisions.</p>}
      {r.data && r.data.length > 0 && (
        <ul class="list" data-testid="revisions">
          {r.data.map((c) => (
            <li key={c.cursor}>
              {when(c.recordedAt)} · {CATEGORY_NAMES[c.category as Category]}: {c.oldScore ?? '—'} → <strong>{c.newScore}</strong>
            </li>
          ))}
        </ul>
      )}
    </>
  );
}

function Sanctions({ token }: { token: string }) {
  const l = useLoad(() => call(client.GET('/api/v1/compliance/sanctions/lists')), []);
  const [file, setFile] = useState<File | null>(null);
  const [progress, setProgress] = useState<number | null>(null);
  const a = useAction();
  const current = l.data?.current as { version: number; publishedAt: string; entryCount: number; importedAt: string; fileName: string } | null | undefined;
  return (
    <Section id="sanctions" title="Sanctions list" intro="The OFAC SDN list in force; upload sdn_advanced.xml, sdn.csv or their ZIP to import a newer one.">
      <Status error={l.error} testid="sanctions" />
      {l.data && (
        <p data-testid="sanctions-current">
          {current ? `In force: version ${current.version}, published ${when(current.publishedAt)}, ${current.entryCount.toLocaleString()} entries (${current.fileName}, imported ${when(current.importedAt)}).` : 'No list loaded: screening fails closed.'}
        </p>
      )}
      <form
        class="grid"
        onSubmit={(e) => {
          e.preventDefault();
          if (!file) return;
          void a.run(async () => {
            setProgress(0);
            // the same SDK, with a transport that reports upload progress (fetch cannot)
            const upload = createCredenceClient({ baseUrl: location.origin, fetch: xhrFetch((sent, total) => setProgress(total ? sent / total : 0)) });
            upload.setToken(token);
            const type = file.name.endsWith('.csv') ? 'text/csv' : file.name.endsWith('.xml') ? 'application/xml' : 'application/octet-stream';
            const r = await call(
              upload.POST('/api/v1/compliance/sanctions/import', {
                params: { query: { fileName: file.name } },
                body: file as never,
                bodySerializer: (b: unknown) => b as never,
                headers: { 'content-type': type },
              } as never),
            );
            setProgress(1);
            l.reload();
            const res = r as { status: string; list: { version: number; entryCount: number } };
            return res.status === 'unchanged' ? 'Identical to the list in force: nothing changed.' : `Imported version ${res.list.version} (${res.list.entryCount} entries).`;
          });
        }}
      >
        <Field label="SDN file">
          <input name="sdnFile" type="file" accept=".xml,.csv,.zip" onChange={(e) => setFile(e.currentTarget.files?.[0] ?? null)} />
        </Field>
        <button type="submit" disabled={a.busy || !file}>
          Upload
        </button>
      </form>
      {progress !== null && (
        <div class="meter-row">
          <progress max={1} value={progress} aria-label="Upload progress" data-testid="upload-progress" />
          <span>{Math.round(progress * 100)}%</span>
        </div>
      )}
      <Status error={a.error} ok={a.ok} testid="sanctions-upload" />
      {l.data && l.data.lists.length > 1 && (
        <details>
          <summary>Recent imports</summary>
          <ul class="list">
            {(l.data.lists as unknown as { id: string; version: number; importedAt: string; entryCount: number; importedBy: string }[]).map((x) => (
              <li key={x.id}>
                v{x.version} · {x.entryCount} entries · {when(x.importedAt)} by {x.importedBy}
              </li>
            ))}
          </ul>
        </details>
      )}
    </Section>
  );
}

export function Admin({ address, token }: { address: string; token: string }) {
  const [input, setInput] = useState('');
  const [wallet, setWallet] = useState<string | null>(null);
  return (
    <>
      <Section id="disputes-queue" title="Disputes" intro="Review a wallet's disputes: move them through the lifecycle, resolve with notes, revise the score.">
        <form
          class="grid"
          onSubmit={(e) => {
            e.preventDefault();
            setWallet(input.trim());
          }}
        >
          <Field label="Wallet address">
            <input name="adminWallet" value={input} onInput={(e) => setInput(e.currentTarget.value)} placeholder="0x…" />
          </Field>
          <button type="submit">Show disputes</button>
        </form>
        {wallet && <WalletReview wallet={wallet} admin={address} />}
      </Section>
      <Sanctions token={token} />
    </>
  );
}

// Admin (a JWT with the admin role): the disputes queue with status actions and revised scores (and a chosen
// wallet's score revisions), the audit log, and the sanctions lists: how old the one in force is, an upload that
// shows its progress and its failure as a failure, and a confirmation before a file that drops most entries.
import { useState } from 'preact/hooks';
import { ConflictError, createCredenceClient } from '@credence/sdk';
import { call, client, plural } from '../api.ts';
import { Field, Section, Status, useAction, useLoad, when } from '../ui/kit.tsx';
import { xhrFetch } from '../xhr-fetch.ts';
import { DisputesQueue } from './admin-queue.tsx';
import { AuditLog } from './admin-audit.tsx';

/** A refused replacement that would drop most of the list: the service's 409 asks for confirm=true. */
const dropsMost = (e: unknown): e is ConflictError => e instanceof ConflictError && /confirm/i.test(e.details);

function Sanctions({ token }: { token: string }) {
  const l = useLoad(() => call(client.GET('/api/v1/compliance/sanctions/lists')), []);
  const [file, setFile] = useState<File | null>(null);
  const [progress, setProgress] = useState<{ share: number; state: 'sending' | 'done' | 'failed' } | null>(null);
  const [confirming, setConfirming] = useState<string | null>(null);
  const a = useAction();
  const current = l.data?.current;
  const staleness = l.data?.staleness;

  const upload = (f: File, confirm: boolean) =>
    a.run(async () => {
      setConfirming(null);
      setProgress({ share: 0, state: 'sending' });
      // the same SDK, with a transport that reports upload progress (fetch cannot)
      const up = createCredenceClient({ baseUrl: location.origin, fetch: xhrFetch((sent, total) => setProgress({ share: total ? sent / total : 0, state: 'sending' })) });
      up.setToken(token);
      const type = f.name.endsWith('.csv') ? 'text/csv' : f.name.endsWith('.xml') ? 'application/xml' : 'application/octet-stream';
      let res;
      try {
        res = await call(
          up.POST('/api/v1/compliance/sanctions/import', {
            params: { query: { fileName: f.name, ...(confirm ? { confirm: true } : {}) } },
            headers: { 'content-type': type },
            // the body is the file itself, as chosen (the API document declares the import's query, not its body)
            middleware: [{ onRequest: ({ request }) => new Request(request, { body: f }) }],
          }),
        );
      } catch (e) {
        // the file was sent but not imported: a failure, not a full bar
        setProgress((p) => ({ share: p?.share ?? 0, state: 'failed' }));
        if (!confirm && dropsMost(e)) {
          setConfirming(e.details.replace(/\s*If that is intended.*$/, ''));
          return;
        }
        throw e;
      }
      setProgress({ share: 1, state: 'done' });
      l.reload();
      return res.status === 'unchanged' ? 'Identical to the list in force: nothing changed.' : `Imported version ${res.list.version} (${plural(res.list.entryCount, 'entry', 'entries')}).`;
    });

  return (
    <Section id="sanctions" title="Sanctions list" intro="The OFAC SDN list in force; upload sdn_advanced.xml, sdn.csv or their ZIP to import a newer one.">
      <Status error={l.error} testid="sanctions" />
      {l.data && (
        <p data-testid="sanctions-current">
          {current
            ? `In force: version ${current.version}, published ${when(current.publishedAt)}${staleness?.ageDays != null ? ` (${plural(staleness.ageDays, 'day')} ago)` : ''}, ${plural(current.entryCount, 'entry', 'entries')} (${current.fileName}, imported ${when(current.importedAt)}).`
            : 'No list loaded: screening fails closed.'}
        </p>
      )}
      {staleness?.stale && (
        <p class="error" role="alert" data-testid="sanctions-stale">
          Out of date: {staleness.warning ?? `the list is older than ${plural(staleness.maxAgeDays, 'day')}.`}
        </p>
      )}
      <form
        class="grid"
        onSubmit={(e) => {
          e.preventDefault();
          if (file) void upload(file, false);
        }}
      >
        <Field label="SDN file">
          <input
            name="sdnFile"
            type="file"
            accept=".xml,.csv,.zip"
            onChange={(e) => {
              setFile(e.currentTarget.files?.[0] ?? null);
              setConfirming(null);
              setProgress(null);
            }}
          />
        </Field>
        <button type="submit" disabled={a.busy || !file}>
          Upload
        </button>
      </form>
      {progress !== null && (
        <div class="meter-row">
          <progress max={1} value={progress.share} aria-label="Upload progress" data-testid="upload-progress" data-state={progress.state} />
          <span data-testid="upload-state">
            {progress.state === 'sending' ? `${Math.round(progress.share * 100)}% sent` : progress.state === 'done' ? 'Imported' : 'Sent, not imported'}
          </span>
        </div>
      )}
      {confirming && file && (
        <div class="notice sandbox" role="alertdialog" aria-labelledby="sanctions-confirm-h" data-testid="sanctions-confirm">
          <h3 id="sanctions-confirm-h">Replace the list with this much smaller one?</h3>
          <p>{confirming}</p>
          <p class="actions">
            <button type="button" class="danger" disabled={a.busy} onClick={() => void upload(file, true)}>
              Replace anyway
            </button>
            <button
              type="button"
              class="secondary"
              onClick={() => {
                setConfirming(null);
                setProgress(null);
              }}
            >
              Keep the list in force
            </button>
          </p>
        </div>
      )}
      <Status error={a.error} ok={a.ok} testid="sanctions-upload" />
      {l.data && l.data.lists.length > 1 && (
        <details>
          <summary>Recent imports</summary>
          <ul class="list">
            {l.data.lists.map((x) => (
              <li key={x.id}>
                v{x.version} · {plural(x.entryCount, 'entry', 'entries')} · {when(x.importedAt)} by {x.importedBy}
              </li>
            ))}
          </ul>
        </details>
      )}
    </Section>
  );
}

export function Admin({ address, token }: { address: string; token: string }) {
  // an action in the queue adds audit entries: the log reloads
  const [tick, setTick] = useState(0);
  return (
    <>
      <DisputesQueue admin={address} onAction={() => setTick((t) => t + 1)} />
      <AuditLog tick={tick} />
      <Sanctions token={token} />
    </>
  );
}

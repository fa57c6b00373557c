// Admin (a JWT with the admin role): the disputes queue with status actions and revised scores (and a chosen
// wallet's score revisions), the audit log, and the sanctions lists with an upload that shows its progress.
import { useState } from 'preact/hooks';
import { createCredenceClient } from '@credence/sdk';
import { call, client } from '../api.ts';
import { Field, Section, Status, useAction, useLoad, when } from '../ui/kit.tsx';
import { xhrFetch } from '../xhr-fetch.ts';
import { DisputesQueue } from './admin-queue.tsx';
import { AuditLog } from './admin-audit.tsx';

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

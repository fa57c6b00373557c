// My DID (register it if I have none), my credentials (list, revoke) and my KYC status (start a session), with
// the wallet's own session. The KYC status is asked only when there is one to ask about (a session started from
// this browser, or a KYC credential), or when the person asks: never a 404 on every page load.
import { useState } from 'preact/hooks';
import { NotFoundError } from '@credence/sdk';
import { call, own as client } from '../api.ts';
import { Section, Status, useAction, useLoad, when, short } from '../ui/kit.tsx';
import { ActionButton, Table } from '../ui/widgets.tsx';

const kycItem = (did: string) => `credence.console.kyc.${did.toLowerCase()}`;

function Credentials({ did, onKycCredential }: { did: string; onKycCredential: () => void }) {
  const l = useLoad(async () => {
    const list = await call(client.GET('/api/v1/identity/{did}/credentials', { params: { path: { did } } }));
    if (list.some((c) => /kyc|age/i.test(c.credentialType))) onKycCredential();
    return list;
  }, [did]);
  const a = useAction();
  return (
    <div>
      <h3>Credentials</h3>
      <Status error={l.error} testid="credentials" />
      <Status error={a.error} ok={a.ok} testid="credential-action" />
      {l.data && l.data.length === 0 && <p>No credentials issued to this DID.</p>}
      {l.data && l.data.length > 0 && (
        <Table columns={['Type', 'Issued', 'Expires', 'State', { label: 'Actions', hidden: true }]} label="Credentials" responsive>
          {l.data.map((c) => (
            <tr key={c.id}>
              <td data-label="Type">{c.credentialType}</td>
              <td data-label="Issued">{when(c.issuanceDate)}</td>
              <td data-label="Expires">{when(c.expirationDate)}</td>
              <td data-label="State">{c.revoked ? 'revoked' : 'active'}</td>
              <td>
                {!c.revoked && (
                  <ActionButton
                    action={a}
                    kind="danger"
                    run={async () => {
                      await call(client.POST('/api/v1/identity/{did}/credentials/{id}/revoke', { params: { path: { did, id: c.id } } }));
                      l.reload();
                      return `Credential ${c.credentialType} revoked.`;
                    }}
                  >
                    Revoke
                  </ActionButton>
                )}
              </td>
            </tr>
          ))}
        </Table>
      )}
    </div>
  );
}

function KycStatus({ did }: { did: string }) {
  const l = useLoad(async () => {
    try {
      return await call(client.GET('/api/v1/compliance/kyc/{did}/status', { params: { path: { did } } }));
    } catch (e) {
      if (e instanceof NotFoundError) return null; // never started
      throw e;
    }
  }, [did]);
  return (
    <>
      <Status error={l.error} testid="kyc" />
      {l.loading && <p role="status">Reading the KYC status…</p>}
      {!l.loading && !l.error && (
        <p data-testid="kyc-status">{l.data ? `Status: ${l.data.status}, level ${l.data.kycLevel}${l.data.reason ? ` (${l.data.reason})` : ''}.` : 'Not started.'}</p>
      )}
      {!l.loading && !l.error && (!l.data || l.data.status === 'rejected') && <StartKyc did={did} />}
    </>
  );
}

function StartKyc({ did }: { did: string }) {
  const a = useAction();
  return (
    <>
      <ActionButton
        action={a}
        run={async () => {
          const s = await call(client.POST('/api/v1/compliance/kyc/initiate', { body: { did } }));
          localStorage.setItem(kycItem(did), '1');
          location.assign(s.redirectUrl);
        }}
      >
        Start identity verification
      </ActionButton>
      <Status error={a.error} testid="kyc-start" />
    </>
  );
}

function Kyc({ did, known }: { did: string; known: boolean }) {
  const [asked, setAsked] = useState(false);
  const started = known || asked || localStorage.getItem(kycItem(did)) !== null;
  return (
    <div>
      <h3>KYC</h3>
      {started ? (
        <KycStatus did={did} />
      ) : (
        <>
          <p data-testid="kyc-status">No identity verification started from this browser.</p>
          <p class="actions">
            <StartKyc did={did} />
            <button type="button" class="secondary" onClick={() => setAsked(true)}>
              Check my KYC status
            </button>
          </p>
        </>
      )}
    </div>
  );
}

export function Identity({ address, did, onDid }: { address: string; did: string | null; onDid: (did: string) => void }) {
  const a = useAction();
  const [kycKnown, setKycKnown] = useState(false);
  return (
    <Section id="identity" title="My identity">
      {did ? (
        <p>
          DID: <code data-testid="did">{did}</code>
        </p>
      ) : (
        <p>
          No DID yet.{' '}
          <ActionButton
            action={a}
            run={async () => {
              const r = await call(client.POST('/api/v1/identity/register', { body: { walletAddress: address } }));
              onDid(r.did);
              return `Registered ${short(r.did, 24)}.`;
            }}
          >
            Register my DID
          </ActionButton>
        </p>
      )}
      <Status error={a.error} ok={a.ok} testid="did" />
      {did && <Credentials did={did} onKycCredential={() => setKycKnown(true)} />}
      {did && <Kyc did={did} known={kycKnown} />}
    </Section>
  );
}

// The console: one page per role under /console (owner, developer, admin) plus /console/verify. Signing in is
// Sign-In with Ethereum with the browser's wallet; every call goes through the SDK (api.ts).
import { render } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import './styles.css';
import { messageOf } from './api.ts';
import { loadSession, signInWithWallet, signOut, type Session } from './session.ts';
import { Status } from './ui/kit.tsx';
import { lazy } from './ui/lazy.tsx';

// Each role's page is its own chunk, loaded when first shown: the sign-in page carries none of them.
const OwnerPage = lazy(() => import('./pages/owner-page.tsx'), 'OwnerPage');
const DeveloperPage = lazy(() => import('./pages/developer-page.tsx'), 'DeveloperPage');
const Admin = lazy(() => import('./pages/admin.tsx'), 'Admin');
const Verify = lazy(() => import('./pages/verify.tsx'), 'Verify');

type Route = 'owner' | 'developer' | 'admin' | 'verify';
const TITLES: Record<Route, string> = { owner: 'My scores', developer: 'Developer', admin: 'Admin', verify: 'Verify a proof' };

function routeOf(path: string): Route {
  const seg = path.replace(/^\/console\/?/, '').split('/')[0];
  return seg === 'developer' || seg === 'admin' || seg === 'verify' ? seg : 'owner';
}

function go(route: Route) {
  history.pushState(null, '', route === 'owner' ? '/console/' : `/console/${route}`);
  dispatchEvent(new PopStateEvent('popstate'));
}

function SignIn({ onSession }: { onSession: (s: Session) => void }) {
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  return (
    <section class="panel" aria-labelledby="signin-h">
      <h2 id="signin-h">Sign in</h2>
      <p>Sign in with your Ethereum wallet (Sign-In with Ethereum): your wallet signs a message, no transaction and no fee.</p>
      <button
        type="button"
        disabled={busy}
        onClick={async () => {
          setBusy(true);
          setError(null);
          try {
            onSession(await signInWithWallet());
          } catch (e) {
            setError(messageOf(e));
          } finally {
            setBusy(false);
          }
        }}
      >
        {busy ? 'Waiting for the wallet…' : 'Sign in with wallet'}
      </button>
      <Status error={error} testid="signin" />
    </section>
  );
}

function App() {
  const [session, setSession] = useState<Session | null>(loadSession);
  const [route, setRoute] = useState<Route>(routeOf(location.pathname));
  const [keyTick, setKeyTick] = useState(0);
  useEffect(() => {
    const on = () => setRoute(routeOf(location.pathname));
    addEventListener('popstate', on);
    return () => removeEventListener('popstate', on);
  }, []);
  useEffect(() => {
    document.title = `${TITLES[route]} · Credence console`;
  }, [route]);
  const isAdmin = session?.roles.includes('admin') ?? false;
  const onKey = () => setKeyTick((t) => t + 1);
  const nav: Route[] = isAdmin ? ['owner', 'developer', 'admin', 'verify'] : ['owner', 'developer', 'verify'];
  return (
    <>
      <a class="skip" href="#main">
        Skip to content
      </a>
      <header class="bar">
        <a class="brand" href="/">
          Credence
        </a>
        <nav aria-label="Console">
          {nav.map((r) => (
            <a
              key={r}
              href={r === 'owner' ? '/console/' : `/console/${r}`}
              aria-current={route === r ? 'page' : undefined}
              onClick={(e) => {
                e.preventDefault();
                go(r);
              }}
            >
              {TITLES[r]}
            </a>
          ))}
        </nav>
        {session && (
          <span class="who">
            <code title={session.address}>{`${session.address.slice(0, 6)}…${session.address.slice(-4)}`}</code>
            {isAdmin && <span class="badge">admin</span>}
            <button
              type="button"
              class="secondary"
              onClick={() => {
                signOut();
                setSession(null);
              }}
            >
              Sign out
            </button>
          </span>
        )}
      </header>
      <main id="main" class="page">
        <h1>{TITLES[route]}</h1>
        {route === 'verify' ? (
          <Verify signedIn={!!session} />
        ) : !session ? (
          <SignIn onSession={setSession} />
        ) : route === 'developer' ? (
          <DeveloperPage s={session} keyTick={keyTick} onKey={onKey} />
        ) : route === 'admin' ? (
          isAdmin ? <Admin address={session.address} token={session.token} /> : <p class="panel">This wallet is not an administrator.</p>
        ) : (
          <OwnerPage s={session} />
        )}
      </main>
    </>
  );
}

const root = document.getElementById('app')!;
root.textContent = ''; // the boot line, shown until this script runs
render(<App />, root);

// The built-in verification page (the local provider's hosted URL): a person enters a birth date and approves
// or rejects. The page's server side then plays the provider: it signs the result and posts it to
// POST /api/v1/compliance/kyc/callback/{provider}, through the same route and checks a real provider's call meets.
import { randomUUID } from 'node:crypto';
import { Type } from '@sinclair/typebox';
import type { App } from '../../platform/http/types.js';
import { notFound } from '../../platform/errors.js';
import { HtmlPage } from '../../platform/http/schemas.js';
import { securePage } from '../../platform/http/page-security.js';
import { errorResponses } from '../../platform/openapi.js';
import type { KycService } from './kyc-service.js';
import { LOCAL_SIGNATURE_HEADER, type LocalCallbackBody, type LocalProvider } from './providers/local.js';
import { parseBirthDate } from './providers/types.js';
import type { KycSessionRow } from './repo.js';

const esc = (s: string) => s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

const layout = (title: string, body: string, nonce: string) => `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${esc(title)}</title>
<style nonce="${esc(nonce)}">body{font-family:system-ui,sans-serif;max-width:36rem;margin:3rem auto;padding:0 1rem;color:#1d2330}
label{display:block;margin:1rem 0 .3rem;font-weight:600}input,select{font-size:1rem;padding:.4rem}
.actions{margin-top:1.5rem;display:flex;gap:1rem}button{font-size:1rem;padding:.6rem 1.4rem;border-radius:6px;border:1px solid #888;cursor:pointer}
#approve{background:#176b3a;color:#fff}#reject{background:#9b1c1c;color:#fff}.error{color:#9b1c1c}.muted{color:#667}</style>
</head><body>${body}</body></html>`;

function formPage(nonce: string, s: KycSessionRow, error: string | null, values: { birthDate?: string; level?: string } = {}) {
  return layout(
    'Credence identity verification',
    `<h1>Identity verification</h1>
<p class="muted">Built-in verification provider (development). Session <code id="session-id">${esc(s.id)}</code> for
<code>${esc(s.did)}</code>, provider <code>${esc(s.provider)}</code>; expires ${esc(s.expires_at.toISOString())}.</p>
${error ? `<p class="error" id="error" role="alert">${esc(error)}</p>` : ''}
<form method="post" action="/api/v1/compliance/kyc/local/${esc(s.id)}">
<label for="birthDate">Date of birth</label>
<input type="date" id="birthDate" name="birthDate" value="${esc(values.birthDate ?? '')}" max="${new Date().toISOString().slice(0, 10)}">
<label for="level">Verification level</label>
<select id="level" name="level">
<option value="basic"${values.level === 'full' ? '' : ' selected'}>basic (identity)</option>
<option value="full"${values.level === 'full' ? ' selected' : ''}>full (identity, document and liveness)</option>
</select>
<div class="actions">
<button type="submit" id="approve" name="decision" value="approve">Approve</button>
<button type="submit" id="reject" name="decision" value="reject">Reject</button>
</div></form>`,
    nonce,
  );
}

const resultPage = (nonce: string, s: KycSessionRow, status: string, message: string) =>
  layout(
    'Credence identity verification',
    `<h1>Identity verification</h1><p id="result" data-status="${esc(status)}">${esc(message)}</p>
<p class="muted">Session <code>${esc(s.id)}</code> for <code>${esc(s.did)}</code>. You can close this page.</p>`,
    nonce,
  );

export function registerLocalPage(app: App, kyc: KycService, providers: Map<string, LocalProvider>) {
  app.register(
    async (s) => {
      s.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string', bodyLimit: 8 * 1024 }, (_req, body, done) => {
        done(null, Object.fromEntries(new URLSearchParams(body as string)));
      });
      const params = Type.Object({ sessionId: Type.String({ format: 'uuid' }) });
      // A person's form errors come back as the page itself (HTML); everything else in the API's error format.
      const errorOrPage = (code: number, page: string) => {
        const json = (errorResponses(code) as Record<number, { description?: string }>)[code];
        return {
          description: `${json.description} A person's form submission gets ${page} instead (HTML).`,
          content: { 'application/json': { schema: json }, 'text/html': { schema: { type: 'string' } } },
        };
      };
      const schema = (operationId: string, summary: string, description: string, post = false) => ({
        operationId,
        tags: ['Compliance'],
        summary,
        description,
        params,
        response: post
          ? {
              200: HtmlPage(),
              400: errorOrPage(400, 'the form with the error'),
              409: errorOrPage(409, 'the result page'),
              502: errorOrPage(502, 'the result page'),
            }
          : { 200: HtmlPage() },
      });

      async function liveSession(id: string) {
        const session = await kyc.session(id);
        return session && providers.has(session.provider) ? session : null;
      }
      // Unknown sessions answer in the API's error format (JSON), like every other 404.
      const sessionNotFound = () => notFound('No verification session with this id on the built-in provider.');

      s.get<{ Params: { sessionId: string } }>(
        '/compliance/kyc/local/:sessionId',
        {
          config: { auth: 'public' },
          schema: schema(
            'compliance.localKycPage',
            'Built-in KYC verification page',
            'The `redirectUrl` of a session with the built-in provider: an HTML form to approve or reject with a birth date.',
          ),
        },
        async (req, reply) => {
          const session = await liveSession(req.params.sessionId);
          if (!session) throw sessionNotFound();
          reply.type('text/html; charset=utf-8');
          const nonce = securePage(reply);
          if (session.status !== 'pending' || session.expires_at.getTime() <= Date.now()) {
            const st = session.status === 'pending' ? 'expired' : session.status;
            return resultPage(nonce, session, st, `This verification session is ${st}.`);
          }
          return formPage(nonce, session, null);
        },
      );

      s.post<{ Params: { sessionId: string }; Body: Record<string, string> }>(
        '/compliance/kyc/local/:sessionId',
        {
          config: { auth: 'public' },
          schema: schema(
            'compliance.submitLocalKyc',
            'Submit the built-in KYC page',
            'Form post (application/x-www-form-urlencoded: decision=approve|reject, birthDate=yyyy-mm-dd, level=basic|full). The page signs the result and delivers it to the callback route, as a provider would.',
            true,
          ),
        },
        async (req, reply) => {
          const session = await liveSession(req.params.sessionId);
          if (!session) throw sessionNotFound();
          reply.type('text/html; charset=utf-8');
          const nonce = securePage(reply);
          const form = (req.body ?? {}) as Record<string, string>;
          const decision = form.decision;
          const level = form.level === 'full' ? 'full' : 'basic';
          if (decision !== 'approve' && decision !== 'reject')
            return reply.code(400).send(formPage(nonce, session, 'Choose Approve or Reject.', form));
          const body: LocalCallbackBody = {
            eventId: randomUUID(),
            sessionId: session.provider_session_id,
            status: decision === 'approve' ? 'approved' : 'rejected',
          };
          if (decision === 'approve') {
            if (parseBirthDate(form.birthDate) === null) {
              return reply
                .code(400)
                .send(formPage(nonce, session, 'Enter a valid date of birth (between 1900 and today) to approve.', form));
            }
            body.birthDate = form.birthDate;
            body.level = level;
          } else {
            body.reason = 'rejected on the verification page';
          }
          const raw = JSON.stringify(body);
          const provider = providers.get(session.provider)!;
          const res = await app.inject({
            method: 'POST',
            url: `/api/v1/compliance/kyc/callback/${encodeURIComponent(session.provider)}`,
            headers: { 'content-type': 'application/json', [LOCAL_SIGNATURE_HEADER]: provider.sign(raw) },
            payload: raw,
          });
          if (res.statusCode !== 200) {
            const details = (res.json() as { details?: string }).details ?? `status ${res.statusCode}`;
            return reply
              .code(res.statusCode === 409 ? 409 : 502)
              .send(resultPage(nonce, session, 'error', `The result could not be recorded: ${details}`));
          }
          const status = (res.json() as { status: string }).status;
          return resultPage(nonce, session, status, status === 'approved' ? 'Verification approved.' : 'Verification rejected.');
        },
      );
    },
    { prefix: '/api/v1' },
  );
}

// The landing page's one dynamic part: the service's health, read through the SDK.
import './styles.css';
import { client } from './api.ts';

const out = document.getElementById('health')!;
client.GET('/health').then(
  ({ data, response }) => {
    if (!data) {
      out.textContent = `The service answered ${response.status}.`;
      return;
    }
    const db = data.database.reachable ? `database (${data.database.kind}) reachable` : 'database NOT reachable';
    const redis = data.redis ? (data.redis.reachable ? ', Redis reachable' : ', Redis NOT reachable') : '';
    out.textContent = `${data.status === 'ok' ? 'OK' : 'Degraded'}: version ${data.version}, up ${Math.round(data.uptimeSeconds)} s, ${db}${redis}.`;
    out.className = data.status === 'ok' ? 'ok' : 'error';
  },
  () => {
    out.textContent = 'The service did not answer.';
    out.className = 'error';
  },
);

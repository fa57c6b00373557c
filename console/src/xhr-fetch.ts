// A fetch built on XMLHttpRequest, for the one call whose upload progress a person watches (a sanctions file):
// fetch cannot report upload progress over HTTP/1.1. Handed to the SDK as its transport.
export function xhrFetch(onProgress: (sent: number, total: number) => void): typeof fetch {
  return async (input, init) => {
    const req = input instanceof Request ? input : new Request(input, init);
    const body = req.method === 'GET' || req.method === 'HEAD' ? null : await req.blob();
    return new Promise<Response>((resolve, reject) => {
      const xhr = new XMLHttpRequest();
      xhr.open(req.method, req.url);
      req.headers.forEach((v, k) => xhr.setRequestHeader(k, v));
      xhr.responseType = 'blob';
      xhr.upload.onprogress = (e) => onProgress(e.loaded, e.lengthComputable ? e.total : 0);
      xhr.onload = () => {
        const headers = new Headers();
        for (const line of xhr.getAllResponseHeaders().trim().split(/\r?\n/)) {
          const i = line.indexOf(':');
          if (i > 0) headers.append(line.slice(0, i).trim(), line.slice(i + 1).trim());
        }
        resolve(new Response(xhr.status === 204 ? null : xhr.response, { status: xhr.status, statusText: xhr.statusText, headers }));
      };
      xhr.onerror = () => reject(new TypeError('The upload failed: the connection was lost.'));
      xhr.send(body);
    });
  };
}

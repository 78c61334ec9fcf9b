/** The page a request without the token gets: how to get in, never the app bundle. */
export function unauthorizedPage(serveInfoPath: string): string {
  return `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><title>Vigil: token needed</title></head>
<body>
<h1>Vigil needs its access token</h1>
<p>This Vigil server only answers requests that carry the token it printed when it started.</p>
<ol>
<li>Open the full URL that <code>vigil serve</code> (or <code>npm start</code>) printed: it ends in <code>?token=…</code>.
The page then keeps the token in a cookie and the address bar shows the clean URL.</li>
<li>Lost it? The running server also wrote it to <code>${escapeHtml(serveInfoPath)}</code> (field <code>url</code>),
readable only by your user.</li>
<li>Agents and scripts send it as the header <code>Authorization: Bearer &lt;token&gt;</code>.</li>
</ol>
</body>
</html>
`;
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);
}

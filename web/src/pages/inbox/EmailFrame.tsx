// An e-mail's HTML, shown in a sandboxed frame: no scripts, no same-origin access, no forms or popups.
// The app's Content-Security-Policy applies inside too, so remote images and styles do not load.
export function EmailFrame(props: { html: string; title: string }) {
  // The frame's document cannot be measured from outside (opaque origin): size it by the amount of text.
  const height = Math.max(120, Math.min(600, 60 + props.html.length / 3));
  return (
    <iframe
      title={props.title}
      sandbox=""
      srcDoc={`<!doctype html><meta charset="utf-8"><style>body{font-family:sans-serif;font-size:14px;margin:8px;overflow-wrap:anywhere;color:#111;background:#fff}</style>${props.html}`}
      style={{ width: '100%', height, border: 0, background: 'white', borderRadius: 4 }}
    />
  );
}

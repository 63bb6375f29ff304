// Render LaTeX strings (a JSON list on stdin) with KaTeX; print per string the data-n ids or the error.
const katex = require(process.argv[2]);
const items = JSON.parse(require('fs').readFileSync(0, 'utf8'));
const out = items.map((s) => {
  try {
    const html = katex.renderToString(s, {throwOnError: true, strict: 'ignore',
      trust: (ctx) => ctx.command === '\\htmlData'});
    return {ok: true, ids: [...html.matchAll(/data-n="(\d+)"/g)].map((m) => +m[1]),
            red: html.includes('color:#cc0000')};
  } catch (e) { return {ok: false, error: String(e.message)}; }
});
console.log(JSON.stringify(out));

/** The exported page's own rules: the viewer fills the window. */
export const PAGE_STYLE = `
html,body{margin:0;height:100%;font:14px/1.4 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:#222;background:#fff}
`

/**
 * The viewer's stylesheet, inside whatever positioned element hosts it (the page's body, or the web
 * UI's graph tab): the graph fills the host; search and legend float left, details right.
 */
export const VIEWER_STYLE = `
#graph{position:absolute;top:0;right:0;bottom:0;left:300px}
.with-details #graph{right:360px}
.panel{position:absolute;background:rgba(255,255,255,.94);border:1px solid #ddd;border-radius:6px;box-shadow:0 1px 4px rgba(0,0,0,.12);padding:10px 12px;overflow:auto}
#side{top:10px;left:10px;width:280px;max-height:calc(100% - 40px)}
#side h1{font-size:15px;margin:0 0 4px}
#stats{color:#666;font-size:12px;margin-bottom:8px}
#search{width:100%;box-sizing:border-box;padding:6px 8px;font:inherit;border:1px solid #bbb;border-radius:4px}
#matches{list-style:none;margin:4px 0 0;padding:0}
#matches li{padding:3px 6px;cursor:pointer;border-radius:3px}
#matches li:hover,#matches li.active{background:#eef3fa}
#legend{margin-top:10px;font-size:12px}
#legend div{display:flex;align-items:center;gap:6px;margin:2px 0}
.swatch{flex:none;width:10px;height:10px;border-radius:50%}
#details{top:10px;right:10px;width:340px;max-height:calc(100% - 40px)}
#details[hidden]{display:none}
#details h2{font-size:16px;margin:0 24px 2px 0}
#details h3{font-size:13px;margin:12px 0 4px}
#details .meta{color:#666;font-size:12px}
#details .empty{color:#888;font-style:italic}
#details ul{margin:0;padding-left:18px}
#details li{margin:2px 0}
#details a{color:#2b5d9b;cursor:pointer}
#close{position:absolute;top:6px;right:8px;border:0;background:none;font-size:18px;cursor:pointer}
#neighbourhood-only{display:flex;align-items:center;gap:6px;margin-top:8px;font-size:12px}
#nowebgl{position:absolute;inset:0;display:flex;align-items:center;justify-content:center;color:#a00}
`

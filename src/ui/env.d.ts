/** esbuild bundles imported stylesheets into dist/ui/app.css. */
declare module '*.css'

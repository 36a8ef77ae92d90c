/** `hyparquet`, the query path's Parquet reader; `npm run build` makes this one file (src/vendor/README.md). */
export { parquetMetadata, parquetRead, parquetSchema } from 'hyparquet'

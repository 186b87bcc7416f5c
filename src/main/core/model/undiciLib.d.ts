// `undici/index-fetch.js`: the `undici` package's fetch entry, the one Node
// builds its own fetch from. Smaller than the package's index (no mock agents,
// caches or other dispatchers); the package ships types for the index only,
// and these are the same classes.
declare module 'undici/index-fetch.js' {
  export { fetch, FormData, Headers, Request, Response, EnvHttpProxyAgent } from 'undici';
}

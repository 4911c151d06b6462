/** The published `wpapi` client ships no types; the events tests use it untyped. */
declare module 'wpapi' {
  const WPAPI: any;
  export default WPAPI;
}

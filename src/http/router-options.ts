/**
 * Options of every router of the API. Paths match case-sensitively: @koa/router matches routes without regard to
 * case by default, but the middleware a router mounts with use() (authentication, the JSON body) only on the path
 * as written, so /V1/PARTNER/PING reached the handler without credentials (issue 13: a 500, and for the admin API
 * a handler without the admin token). Case-sensitive, /V1/... is simply no route: 404.
 */
export const ROUTER_OPTIONS = { sensitive: true } as const;

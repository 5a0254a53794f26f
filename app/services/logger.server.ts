import pino from "pino";

/**
 * Structured JSON logs on stdout. Never log passwords, session ids, tokens,
 * cookies or query strings: callers pass only what is listed here.
 */
export const logger = pino({
  base: undefined,
  level: process.env.LOG_LEVEL ?? (process.env.NODE_ENV === "test" ? "silent" : "info"),
  timestamp: pino.stdTimeFunctions.isoTime,
});

import { type Logger, pino } from 'pino';

/** JSON logs on stdout; one logger per process, children carry request ids and job names. */
export function createLogger(level: string): Logger {
  return pino({
    level,
    base: { service: 'leadflow' },
    timestamp: pino.stdTimeFunctions.isoTime,
    redact: { paths: ['req.headers.authorization', 'headers.authorization'], censor: '[redacted]' },
  });
}

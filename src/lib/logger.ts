import { type DestinationStream, type Logger, pino } from 'pino';

/**
 * JSON logs on stdout (or `destination`: tests read what would be written); one logger per process,
 * children carry request ids and job names.
 */
export function createLogger(level: string, destination?: DestinationStream): Logger {
  const options = {
    level,
    base: { service: 'leadflow' },
    timestamp: pino.stdTimeFunctions.isoTime,
    redact: { paths: ['req.headers.authorization', 'headers.authorization'], censor: '[redacted]' },
  };
  return destination ? pino(options, destination) : pino(options);
}

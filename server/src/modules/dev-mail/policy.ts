import type { FastifyRequest } from 'fastify';
import { isFromThisMachine } from '../../lib/local-request.ts';

/** Whether a request may read the development mailbox: only one made on this machine. */
export const canReadDevMail = (request: FastifyRequest): boolean => isFromThisMachine(request);

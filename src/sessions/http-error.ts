import { DeckhandError, ERROR_MAP, type ErrorCode } from '../protocol/errors';

/** A service error: a DeckhandError whose HTTP status is the one the error table gives its code. */
export class HttpError extends DeckhandError {
  readonly status: number;
  constructor(code: ErrorCode, message: string) {
    super(code, message);
    this.status = ERROR_MAP[code].http;
  }
}

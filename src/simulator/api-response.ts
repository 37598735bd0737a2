/** What the simulator's router answers, before the front end writes it to the socket. */
export interface ApiResponse {
  status: number;
  headers?: Record<string, string>;
  /** JSON body; undefined sends an empty body. */
  body?: unknown;
  /** Bytes sent instead of a JSON body, with their type and file name. */
  file?: { filename: string; contentType: string; bytes: Buffer };
}

/** The 1.x error body real arrays send: `{"errors":[{"context":…,"message":…}]}`. */
export function errorResponse(status: number, message: string, context: string): ApiResponse {
  return { status, body: { errors: [{ context, message }] } };
}

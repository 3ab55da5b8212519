/**
 * A command that failed after its message was printed — by the resident process that ran it, or
 * by the command itself — ends by throwing this, so runCli exits with its code and prints
 * nothing more.
 */
export class ReportedFailure extends Error {
  constructor(readonly exitCode: number) {
    super(`the command failed with exit code ${exitCode} (its message is printed already)`);
    this.name = 'ReportedFailure';
  }
}

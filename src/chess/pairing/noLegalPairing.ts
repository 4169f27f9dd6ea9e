/** No legal pairing exists for the next round (too few players, every pairing a rematch, round already complete…). */
export class NoLegalPairingError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'NoLegalPairingError';
  }
}

/** A card's brand, read from its leading digits (providers/card/card-number.ts). */
export type CardBrand =
  | 'VISA'
  | 'MASTERCARD'
  | 'AMEX'
  | 'DISCOVER'
  | 'DINERS'
  | 'JCB'
  | 'ELO'
  | 'HIPERCARD'
  | 'UNKNOWN';

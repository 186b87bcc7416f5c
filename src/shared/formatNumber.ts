// Whole numbers with thousands separators ("100,000"), for messages.
//
// Not Number.prototype.toLocaleString: its first call loads ICU's locale data,
// tens of milliseconds that a message built at import time (a schema's limit)
// would add to every start of `mino`, whether or not it is ever shown.

export function withThousands(n: number): string {
  const [whole, fraction] = String(n).split('.');
  const grouped = whole.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  return fraction === undefined ? grouped : `${grouped}.${fraction}`;
}

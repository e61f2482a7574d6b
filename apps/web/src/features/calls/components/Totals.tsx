import { Stack } from '@mantine/core';
import type { RenewalCallDto } from '@portal/contracts';
import { formatMoney } from '../../../lib/format.ts';

/** A call's totals, one line per currency (amounts from the server). */
export function Totals({ call, testId }: { call: RenewalCallDto; testId?: string }) {
  if (call.totals.length === 0) return <>—</>;
  return (
    <Stack gap={0} {...(testId ? { 'data-testid': testId } : {})}>
      {call.totals.map((x) => (
        <span key={x.currency} style={{ whiteSpace: 'nowrap' }}>
          {formatMoney(x.amount, x.currency)}
        </span>
      ))}
    </Stack>
  );
}

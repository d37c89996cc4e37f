import { t } from '@lingui/core/macro';
import { useId, useState } from 'react';
import toast from 'react-hot-toast';
import { REFUND_STEP_UP_CENTS } from '#shared/constants';
import { ORDER_STATUSES, type AdminOrder, type OrderStatus } from '#shared/schemas/catalogue';
import { SelectField } from '#web/components/ui/forms';
import { Pagination } from '#web/components/ui/pagination';
import { QueryState } from '#web/components/ui/query-state';
import { Form, StatusButton, useForm } from '#web/components/ui/use-form';
import { StepUpField, useStepUp } from '#web/features/two-factor';
import { errorMessage } from '#web/lib/api-client';
import { useChangeOrder, type ChangeOrderInput } from '../api/change-order';
import { STAFF_ORDERS_PAGE_SIZE, useStaffOrders } from '../api/get-staff-orders';
import { formatLocaleDateTime } from '#web/lib/format';
import { useLocale } from '#web/features/language';
import { creditsLabel, orderStatusLabel } from '../lib/format';

/**
 * The refund's second question, in place. From REFUND_STEP_UP_CENTS up a refund takes the admin's
 * second factor (when two-factor is on): the field sits in the same form, and a refusal about it keeps
 * the question open.
 */
function RefundConfirm({ order, onClose }: { order: AdminOrder; onClose: () => void }) {
  useLocale();
  const change = useChangeOrder();
  const stepUp = useStepUp();
  const item = order.itemName;
  const amount = creditsLabel(order.priceCents);
  const username = order.owner.username;
  const large = order.priceCents >= REFUND_STEP_UP_CENTS;

  // Every refusal is a toast that closes the question, but one about the second factor (its field says why).
  const form = useForm({
    action: async () => {
      await change.mutateAsync({ id: order._id, action: 'refund', ...(large ? stepUp.fields() : {}) });
      toast.success(t`Order for ${item} refunded`);
      onClose();
    },
    onError: (err) => {
      if (large && stepUp.handleError(err)) return true;
      toast.error(errorMessage(err, t`Could not change the order`));
      onClose();
      return true;
    },
  });

  return (
    <Form form={form} noValidate={false} className="confirm-refund-form">
      <div role="group" aria-label={t`Refund ${amount} to ${username}?`} className="confirm-refund">
        {large && <StepUpField stepUp={stepUp} disabled={form.busy} />}
        <StatusButton busy={form.busy} className="btn btn-primary btn-small">
          {t`Confirm refund of ${amount}`}
        </StatusButton>
        <button type="button" className="btn btn-ghost btn-small" onClick={onClose} disabled={form.busy}>
          {t`Keep`}
        </button>
      </div>
    </Form>
  );
}

/** "Gift card for alice": which order a row's button acts on, for screen readers. */
function orderFor(order: AdminOrder): string {
  const item = order.itemName;
  const username = order.owner.username;
  return t`${item} for ${username}`;
}

/** Staff: orders by status. Support and admins fulfil paid orders; admins refund (asked twice). */
export function OrdersManager({ isAdmin }: { isAdmin: boolean }) {
  const ids = useId();
  useLocale();
  const [status, setStatus] = useState<OrderStatus | ''>('');
  const [page, setPage] = useState(1);
  const orders = useStaffOrders(status, page);
  const change = useChangeOrder();
  const [confirmingRefund, setConfirmingRefund] = useState<string | null>(null);
  const pages = Math.max(1, Math.ceil((orders.data?.total ?? 0) / STAFF_ORDERS_PAGE_SIZE));

  async function run(input: ChangeOrderInput, order: AdminOrder) {
    setConfirmingRefund(null);
    try {
      await change.mutateAsync(input);
      const item = order.itemName;
      toast.success(input.action === 'fulfil' ? t`Order for ${item} fulfilled` : t`Order for ${item} refunded`);
    } catch (err) {
      toast.error(errorMessage(err, t`Could not change the order`));
    }
  }

  return (
    <section className="admin-panel" aria-labelledby={`${ids}-title`}>
      <h2 id={`${ids}-title`}>{t`Orders`}</h2>
      <div className="admin-search">
        <SelectField
          label={t`Status`}
          value={status}
          onChange={(e) => {
            setStatus(e.target.value as OrderStatus | '');
            setPage(1);
          }}
          options={[{ value: '', label: t`All` }, ...ORDER_STATUSES.map((s) => ({ value: s, label: orderStatusLabel(s) }))]}
        />
      </div>
      <QueryState
        data={orders.data?.orders}
        loading={t`Loading orders…`}
        error={orders.isError ? errorMessage(orders.error, t`Could not load orders`) : null}
        isEmpty={(list) => list.length === 0}
        empty={t`No orders.`}
      >
        {(list) => (
          <div className="table-wrap rtable-wrap">
            <table className="admin-table rtable" aria-label={t`Orders`}>
              <thead>
                <tr>
                  <th scope="col">{t`Bought`}</th>
                  <th scope="col">{t`User`}</th>
                  <th scope="col">{t`Item`}</th>
                  <th scope="col" className="num">
                    {t`Price`}
                  </th>
                  <th scope="col">{t`Status`}</th>
                  <th scope="col">
                    <span className="visually-hidden">{t`Actions`}</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {list.map((order) => (
                  <tr key={order._id} data-testid="staff-order-row">
                    <td data-label={t`Bought`}>{formatLocaleDateTime(order.createdAt)}</td>
                    <td data-label={t`User`}>{order.owner.username}</td>
                    <td data-label={t`Item`}>{order.itemName}</td>
                    <td data-label={t`Price`} className="num">
                      {creditsLabel(order.priceCents)}
                    </td>
                    <td data-label={t`Status`}>
                      <span className={`order-status order-status-${order.status}`}>{orderStatusLabel(order.status)}</span>
                    </td>
                    <td data-label={t`Actions`} className="catalogue-row-actions">
                      {order.status === 'paid' && (
                        <button
                          type="button"
                          className="btn btn-secondary btn-small"
                          disabled={change.isPending}
                          onClick={() => void run({ id: order._id, action: 'fulfil' }, order)}
                        >
                          {t`Fulfil`} <span className="visually-hidden">{orderFor(order)}</span>
                        </button>
                      )}
                      {isAdmin && order.status !== 'refunded' && confirmingRefund !== order._id && (
                        <button
                          type="button"
                          className="btn btn-ghost btn-small"
                          disabled={change.isPending}
                          onClick={() => setConfirmingRefund(order._id)}
                        >
                          {t`Refund`} <span className="visually-hidden">{orderFor(order)}</span>
                        </button>
                      )}
                      {isAdmin && confirmingRefund === order._id && (
                        <RefundConfirm order={order} onClose={() => setConfirmingRefund(null)} />
                      )}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </QueryState>
      <Pagination page={page} pages={pages} onPage={setPage} label={t`Order pages`} busy={orders.isFetching} />
    </section>
  );
}

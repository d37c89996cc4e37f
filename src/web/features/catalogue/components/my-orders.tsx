import { t } from '@lingui/core/macro';
import { useState } from 'react';
import { Link } from 'react-router';
import { QueryState } from '#web/components/ui/query-state';
import { Pagination } from '#web/components/ui/pagination';
import { errorMessage } from '#web/lib/api-client';
import { MY_ORDERS_PAGE_SIZE, useMyOrders } from '../api/get-my-orders';
import { formatLocaleDateTime } from '#web/lib/format';
import { useLocale } from '#web/features/language';
import { receiptPath } from '#shared/routes';
import { creditsLabel, orderStatusLabel } from '../lib/format';

/** My orders, newest first: status, price and the receipt of each ledger entry the order made. */
export function MyOrders() {
  useLocale();
  const [page, setPage] = useState(1);
  const orders = useMyOrders(page);
  const pages = Math.max(1, Math.ceil((orders.data?.total ?? 0) / MY_ORDERS_PAGE_SIZE));

  return (
    <div id="orders" className="my-orders">
      <h3>{t`Your orders`}</h3>
      <QueryState
        data={orders.data?.orders}
        loading={t`Loading your orders…`}
        error={orders.isError ? errorMessage(orders.error, t`Could not load your orders`) : null}
        isEmpty={(list) => list.length === 0}
        empty={t`No orders yet.`}
      >
        {(list) => (
          <ul className="order-list">
            {list.map((order) => (
              <li key={order._id} className="order-row" data-testid="order-row">
                <div>
                  <strong>{order.itemName}</strong>
                  <span className="muted">
                    {' '}
                    · {creditsLabel(order.priceCents)} · {formatLocaleDateTime(order.createdAt)}
                  </span>
                </div>
                <span className={`order-status order-status-${order.status}`} data-testid="order-status">
                  {orderStatusLabel(order.status)}
                </span>
                <span className="order-links">
                  <Link to={receiptPath(order.ledgerEntryId)}>
                    {t`Receipt`} <span className="visually-hidden">{t`for ${order.itemName}`}</span>
                  </Link>
                  {order.refundLedgerEntryId && (
                    <Link to={receiptPath(order.refundLedgerEntryId)}>
                      {t`Refund receipt`} <span className="visually-hidden">{t`for ${order.itemName}`}</span>
                    </Link>
                  )}
                </span>
              </li>
            ))}
          </ul>
        )}
      </QueryState>
      {pages > 1 && <Pagination page={page} pages={pages} onPage={setPage} label={t`Order pages`} busy={orders.isFetching} />}
    </div>
  );
}

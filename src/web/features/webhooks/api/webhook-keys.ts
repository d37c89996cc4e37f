/** Query keys of the webhooks feature. */
export const webhookKeys = {
  settings: () => ['webhooks', 'settings'] as const,
  deliveries: () => ['webhooks', 'deliveries'] as const,
  deliveriesPage: (page: number, pageSize: number) => ['webhooks', 'deliveries', { page, pageSize }] as const,
};

/** An account's channel settings, by setting key (alert-channel.ts); null or absent: not set. */
export type ChannelValues = Partial<Record<string, string | null>>;

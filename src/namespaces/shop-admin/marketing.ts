/**
 * @module namespaces/shop-admin/marketing
 * The `marketingChannels` extension point: an area that reaches buyers (a mailing list, a social
 * feed) contributes a channel with its campaigns; `marketing/channels`, `campaigns` and
 * `campaign-types` list what the enabled areas contribute.
 */
import type { AppContext } from '../../app-context.js';

export interface MarketingCampaign {
  id: string;
  title: string;
  manage_url: string;
  cost?: { value: string; currency: string; formatted: string };
  sales?: { value: string; currency: string; formatted: string };
}

export interface MarketingChannel {
  slug: string;
  name: string;
  description: string;
  icon: string;
  settingsUrl(ctx: AppContext): string;
  /** `synced`, `syncing`, `failed` or `` as the original. */
  productListingsStatus(ctx: AppContext): Promise<string>;
  errorsCount(ctx: AppContext): Promise<number>;
  isSetupCompleted(ctx: AppContext): Promise<boolean>;
  campaigns(ctx: AppContext): Promise<MarketingCampaign[]>;
  campaignTypes: { id: string; name: string; description: string; createPath: string; iconUrl: string }[];
}

declare module '../../area.js' {
  interface ExtensionPoints {
    marketingChannels: MarketingChannel;
  }
}

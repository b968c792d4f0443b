import type { ResolverMap } from '../attach-resolvers.ts'
import { connection } from '../connection.ts'
import type { Context } from '../context.ts'
import { publicImageUrl } from '../demo-data/product-images.ts'
import type { ProductRecord, VariantRecord } from '../records.ts'
import { filterBySearch, type SearchSpec } from '../search-query.ts'
import { findById } from '../store.ts'
import { storefrontBase } from '../storefront/routes.ts'
import { byGid, manyById } from './lookup.ts'

export const productSearch: SearchSpec<ProductRecord> = {
  fields: {
    id: { kind: 'number', get: (p) => p.id },
    title: { kind: 'string', get: (p) => p.title },
    handle: { kind: 'string', get: (p) => p.handle },
    status: { kind: 'string', get: (p) => p.status },
    // The emulator has one sales channel: an active product is the published one.
    published_status: { kind: 'string', get: (p) => (p.status === 'ACTIVE' ? 'published' : 'unpublished') },
    vendor: { kind: 'string', get: (p) => p.vendor },
    product_type: { kind: 'string', get: (p) => p.productType },
    created_at: { kind: 'date', get: (p) => p.createdAt },
    updated_at: { kind: 'date', get: (p) => p.updatedAt },
  },
  text: (p) => `${p.title} ${p.handle}`,
}

const sortKeys: Record<string, ((p: ProductRecord) => number | string) | undefined> = {
  TITLE: (p) => p.title,
  CREATED_AT: (p) => p.createdAt,
  UPDATED_AT: (p) => p.updatedAt,
  VENDOR: (p) => p.vendor,
  PRODUCT_TYPE: (p) => p.productType,
}

const imageOf = (p: ProductRecord, ctx: Context) =>
  p.imageUrl ? { id: p.id, url: publicImageUrl(p.imageUrl, ctx.runtime.baseUrl()), altText: p.title } : null

export const productResolvers: ResolverMap = {
  QueryRoot: {
    products: (_s, args, ctx) =>
      connection(filterBySearch(ctx.shop.products, args.query, productSearch), args, {
        key: sortKeys[args.sortKey],
      }),
    product: (_s, args, ctx) => byGid(ctx.shop.products, args.id, 'Product'),
    productVariant: (_s, args, ctx) => byGid(ctx.shop.variants, args.id, 'ProductVariant'),
  },
  Product: {
    // The emulated online store (storefront/routes.ts); null while the product is not active.
    onlineStoreUrl: (p: ProductRecord, _a, ctx: Context) =>
      p.status === 'ACTIVE'
        ? `${storefrontBase(ctx.runtime.baseUrl(), ctx.shop.info.myshopifyDomain)}/products/${p.handle}`
        : null,
    featuredImage: (p: ProductRecord, _a, ctx: Context) => imageOf(p, ctx),
    featuredMedia: (p: ProductRecord, _a, ctx: Context) => {
      const image = imageOf(p, ctx)
      if (!image) return null
      return {
        __typename: 'MediaImage',
        id: p.id,
        alt: p.title,
        mediaContentType: 'IMAGE',
        status: 'READY',
        image,
        preview: { image, status: 'READY' },
      }
    },
    variants: (p: ProductRecord, args, ctx: Context) =>
      connection(manyById(ctx.shop.variants, p.variantIds), args),
  },
  ProductVariant: {
    product: (v: VariantRecord, _a, ctx: Context) => findById(ctx.shop.products, v.productId),
    inventoryQuantity: (v: VariantRecord) => v.inventoryQuantity ?? null,
    // Tracked stock at 0 or below cannot be sold (the emulator's variants deny overselling);
    // nor can a variant of a product that is not active.
    availableForSale: (v: VariantRecord, _a, ctx: Context) =>
      findById(ctx.shop.products, v.productId)?.status === 'ACTIVE' &&
      (v.inventoryQuantity == null || v.inventoryQuantity > 0),
    sellingPlanGroups: (v: VariantRecord, args, ctx: Context) =>
      connection(
        ctx.shop.sellingPlanGroups.filter(
          (g) => g.productIds.includes(v.productId) || (g.variantIds ?? []).includes(v.id),
        ),
        args,
      ),
    displayName: (v: VariantRecord, _a, ctx: Context) =>
      `${findById(ctx.shop.products, v.productId)?.title ?? ''} - ${v.title}`,
    image: (v: VariantRecord, _a, ctx: Context) => {
      const p = findById(ctx.shop.products, v.productId)
      return p ? imageOf(p, ctx) : null
    },
  },
}

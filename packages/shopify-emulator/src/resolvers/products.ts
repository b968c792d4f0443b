import type { ResolverMap } from '../attach-resolvers.ts'
import { connection } from '../connection.ts'
import type { Context } from '../context.ts'
import { publicImageUrl } from '../demo-data/product-images.ts'
import type { ProductRecord, VariantRecord } from '../records.ts'
import { datedSortKeys, fieldsByKind, type SearchSpec, searchConnection } from '../search-query.ts'
import { findById } from '../store.ts'
import { storefrontBase } from '../storefront/routes.ts'
import { byGid, manyById } from './lookup.ts'

export const productSearch: SearchSpec<ProductRecord> = {
  fields: {
    ...fieldsByKind<ProductRecord>({
      number: ['id'],
      string: ['title', 'handle', 'status', 'vendor', 'product_type'],
      date: ['created_at', 'updated_at'],
    }),
    // The emulator has one sales channel: an active product is the published one.
    published_status: { kind: 'string', get: (p) => (p.status === 'ACTIVE' ? 'published' : 'unpublished') },
  },
  text: (p) => `${p.title} ${p.handle}`,
  sortKeys: {
    ...datedSortKeys(),
    TITLE: (p) => p.title,
    VENDOR: (p) => p.vendor,
    PRODUCT_TYPE: (p) => p.productType,
  },
}

const imageOf = (p: ProductRecord, ctx: Context) =>
  p.imageUrl ? { id: p.id, url: publicImageUrl(p.imageUrl, ctx.runtime.baseUrl()), altText: p.title } : null

export const productResolvers: ResolverMap = {
  QueryRoot: {
    products: (_s, args, ctx) => searchConnection(ctx.shop.products, args, productSearch),
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

import { Banner, BlockStack, Card, FormLayout, Layout, Page, Text } from '@shopify/polaris'
import { useState } from 'react'
import { LeaveGuard } from '../../app/leave-guard.tsx'
import { LoadErrorState, LoadingState } from '../../app/load-state.tsx'
import { NumberField } from '../../app/number-field.tsx'
import { DeliverySettingsCard } from './delivery-settings-card.tsx'
import { JsonField } from './json-field.tsx'
import { MyPageSettingsCard } from './my-page-settings-card.tsx'
import { MyPageVariantsCard } from './my-page-variants-card.tsx'
import { ThankYouCard } from './thank-you-card.tsx'
import { useSettingsForm } from './use-settings-form.ts'

/** 設定: note attributes, SKU conversions, the thank-you page (message, 計測タグ), delivery prep days, my-page changes and variants. */
export default function SettingsPage() {
  const { load, draft, dirty, saving, save, discard, bind, set, prep, pixel, retry } = useSettingsForm()
  // The cards that save on their own report their unsaved changes to the page's one leave guard.
  const [deliveryDirty, setDeliveryDirty] = useState(false)
  const [myPageDirty, setMyPageDirty] = useState(false)
  return (
    <Page
      title="設定"
      primaryAction={{
        content: '保存',
        onAction: () => void save(),
        disabled: !dirty || saving,
        loading: saving,
      }}
      secondaryActions={[{ content: '変更を破棄', onAction: discard, disabled: !dirty || saving }]}
    >
      <LeaveGuard when={dirty || deliveryDirty || myPageDirty} />
      {load.error && !load.data ? (
        <LoadErrorState title="設定を読み込めませんでした" error={load.error} onRetry={retry} />
      ) : !draft || !prep ? (
        <LoadingState lines={10} card />
      ) : (
        <Layout>
          <Layout.AnnotatedSection
            title="注文とSKU"
            description="2回目以降の注文（請求で作られる注文）に、注文メモ属性として書き込みます。契約の配送時間帯とその配送会社コード（配送時間帯コード）、お届け予定日、定期回数も自動で付きます。SKU変換の結果は「出荷SKU」に入ります。初回の注文には、カートで選ばれたお届け予定日と配送時間帯が付きます。"
          >
            <Card>
              <FormLayout>
                <JsonField
                  testId="settings-note-attribute"
                  label="注文メモ属性（JSON）"
                  helpText='例: [{"key":"定期便","value":"あり"}]（同じキーの契約の属性は上書きされます。定期回数などアプリが付けるキーは使えません）'
                  field="noteAttribute"
                  bind={bind}
                />
                <JsonField
                  testId="settings-sku-conversions"
                  label="SKU変換（JSON）"
                  helpText='例: [{"from":"GRANOLA-500","to":"GRANOLA-500-R+LEAFLET","cycles":"2-"}]（+ で複数のSKU、cycles は 2-＝2回目以降、1-3＝1〜3回目。省略するとすべての回）'
                  field="skuConversions"
                  bind={bind}
                />
              </FormLayout>
            </Card>
          </Layout.AnnotatedSection>
          <Layout.AnnotatedSection
            title="サンクスページ"
            description="注文完了ページでは、ストアのスクリプトは実行されなくなりました（Shopify のチェックアウト拡張機能）。メッセージはアプリのブロックが、計測タグはアプリのウェブピクセルが代わりに届けます。"
          >
            <ThankYouCard
              bind={bind}
              legacyScript={draft.legacyScript}
              clearLegacy={() => set('legacyScript', '')}
              pixel={pixel}
            />
          </Layout.AnnotatedSection>
          <Layout.AnnotatedSection
            title="お届け準備期間"
            description="請求日からお届け予定日までの日数です。"
          >
            <Card>
              <BlockStack gap="300">
                {prep.updatable ? null : (
                  <Banner tone="info">
                    <p>{prep.reason}</p>
                  </Banner>
                )}
                <NumberField
                  testId="settings-prep-days"
                  label="お届け準備期間（日）"
                  min={0}
                  max={30}
                  suffix="日"
                  disabled={!prep.updatable}
                  {...bind('deliveryPrepDays')}
                />
                <Text as="p" tone="subdued">
                  契約数: {prep.contractCount >= 5 ? '5件以上' : `${prep.contractCount}件`}
                  {prep.planAllows ? '（ご利用のプランでは契約数にかかわらず変更できます）' : ''}
                </Text>
              </BlockStack>
            </Card>
          </Layout.AnnotatedSection>
          <Layout.AnnotatedSection
            title="配送設定"
            description="配送業者、お届け希望日の選べる日、お届けしない日です。ストアの商品ページ（定期購入プランのブロック）では、ここで決めた日から選べるお届け希望日と、配送業者の配送時間帯をお客様が選べます。契約詳細の配送時間帯も配送業者の時間帯から選びます。定期便の次のお届け予定日（請求日＋お届け準備期間）がお届けしない日に当たるときは、次のお届けできる日になります。"
          >
            <DeliverySettingsCard onDirtyChange={setDeliveryDirty} />
          </Layout.AnnotatedSection>
          <Layout.AnnotatedSection
            title="マイページ（お客様ご自身での変更）"
            description="お客様がストアのマイページで、ご自身の定期便を変更・解約できます。オフにした変更はマイページに表示されず、受け付けもしません。"
          >
            <MyPageSettingsCard onDirtyChange={setMyPageDirty} />
          </Layout.AnnotatedSection>
          <Layout.AnnotatedSection
            title="マイページ"
            description="お客様がマイページで選べる商品バリエーションです。"
          >
            <MyPageVariantsCard />
          </Layout.AnnotatedSection>
        </Layout>
      )}
    </Page>
  )
}

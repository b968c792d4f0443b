-- Issue 25 item 5 (ADR 0039): the platform no longer runs a merchant's script on the thank-you
-- page, so shop_settings.thank_page_script now holds the サンクスページ settings as JSON text:
-- `""` (none) or {"message", "tags", "legacyScript"}. A script saved before (a non-empty JSON
-- string: the API accepted nothing else) is kept whole in legacyScript, where the settings
-- screen shows it as not run and the merchant moves its tags into 計測タグ; nothing is lost.
update shop_settings
   set thank_page_script = jsonb_pretty(jsonb_build_object(
         'message', '',
         'tags', '[]'::jsonb,
         'legacyScript', thank_page_script::jsonb #>> '{}'))
 where jsonb_typeof(thank_page_script::jsonb) = 'string'
   and thank_page_script::jsonb #>> '{}' <> '';

/**
 * Corrections to Polaris' Japanese translations, given before its ja.json (the first dictionary
 * wins): a calendar's weekday headings are one character in Japanese (日 月 火 …), where
 * ja.json repeats the full 月曜日 and crowds the grid.
 */
export const POLARIS_JA_OVERRIDES = {
  Polaris: {
    DatePicker: {
      daysAbbreviated: {
        monday: '月',
        tuesday: '火',
        wednesday: '水',
        thursday: '木',
        friday: '金',
        saturday: '土',
        sunday: '日',
      },
    },
  },
}

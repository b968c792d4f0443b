-- The shop's web pixel on the platform (issue 14, item 5): the app creates it with
-- webPixelCreate (settings: the pixel key and the ingest URL) and keeps here what the 流入元
-- screen shows. Written only after the platform answered: web_pixel_id is the pixel the platform
-- created or confirmed, with the settings it holds (so a changed app URL or key is seen and
-- updated); pixel_error is the last refusal in Japanese (cleared by the next success).
alter table traffic_pixel_keys
  add column web_pixel_id text,
  add column pixel_settings jsonb,
  add column pixel_connected_at timestamptz,
  add column pixel_error text,
  add column pixel_checked_at timestamptz;

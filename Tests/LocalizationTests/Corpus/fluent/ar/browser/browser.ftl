# This Source Code Form is subject to the terms of the Mozilla Public
# License, v. 2.0. If a copy of the MPL was not distributed with this
# file, You can obtain one at http://mozilla.org/MPL/2.0/.

### The browser window: titles, the address bar and downloads.

-brand-short-name = فَيَرفُكس
-vendor-short-name = Mozilla

## Window titles

browser-main-window-title = { -brand-short-name }
# Variables:
#   $title (String) - the page's title
browser-main-window-content-title = { $title } — { -brand-short-name }
payment-methods = { $service } مدفوعات بدون فوائد من { $bank }
update-available = iPhone متوفر الآن
tabs-open =
    { NUMBER($count) ->
        [zero] لا ألسنة مفتوحة
        [one] لسان واحد مفتوح
        [two] لسانان مفتوحان
        [few] { $count } ألسنة مفتوحة
       *[other] { $count } لسانًا مفتوحًا
    }
downloads-summary = { $name } نُزِّل ({ $size } م.بايت)
    .tooltiptext = افتح { -brand-short-name } لترى التنزيلات
    .accesskey = ت
about-multiline =
    يستخدم { -brand-short-name } بياناتك
    ليجعل التصفح أسرع.

      سطر بمسافة بادئة إضافية
    وسطر أخير.
literal-braces = اكتب { "{" } و { "}" } كما هي
learn-more = <a data-l10n-name="link">اعرف المزيد</a> عن { -vendor-short-name }
shared-with =
    { $gender ->
        [male] شاركه { $user }
        [female] شاركته { $user }
       *[other]
            { $count ->
                [one] شاركه مستخدم واحد
               *[other] شاركه { $count } مستخدمين
            }
    }
mixed-entity = الخصوصية &amp; الأمان

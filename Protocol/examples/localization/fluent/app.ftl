-brand-name = فَيَرفُكس
# $service (String), $bank (String)
payment = { $service } مدفوعات بدون فوائد من { $bank }
tabs-open =
    { NUMBER($count) ->
        [one] لسان واحد مفتوح
       *[other] { $count } ألسنة مفتوحة
    }
update = { -brand-name } جاهز للتحديث
    .title = حدّث { -brand-name }

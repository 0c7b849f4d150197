#!/bin/sh
# Deploy script ‮ with a reversed comment
user="guest⁧"
echo 'single quoted ‪ balanced ‬ text'
if [ "$user" = "admin" ]; then ⁦
  echo "multi-line
string ‮ continues
done"
fi
count=${#user} # length ⁨
echo "$count"
